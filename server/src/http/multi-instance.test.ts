import request from "supertest";
import { useTestContext, type TestContext } from "../testing/test-context";

/**
 * The API keeps nothing in memory that matters, so instances behind a load balancer agree.
 * On the server-pg run the second instance has its own connection pool to the same Postgres.
 */
const ctx = useTestContext();
let second: Awaited<ReturnType<TestContext["openSecondInstance"]>>;
beforeAll(async () => {
  second = await ctx.openSecondInstance();
});
// Runs before useTestContext's own afterAll closes the context.
afterAll(() => second.close());

describe("two instances on one database", () => {
  it("serve one session: signed in on one, known on the other, signed out on both", async () => {
    const user = await ctx.signUp();
    const onSecond = await request(second.app).get("/api/auth/user").set("Authorization", user.bearer);
    expect(onSecond.status).toBe(200);
    expect(onSecond.body.id).toBe(user.id);

    expect((await request(second.app).post("/api/auth/logout").set("Authorization", user.bearer)).status).toBe(204);
    expect((await request(ctx.app).get("/api/auth/user").set("Authorization", user.bearer)).status).toBe(401);
  });

  it("share the login rate limit: failures on either count together", async () => {
    await ctx.signUp({ username: "shared-limit", password: "right-password" });
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const instance = attempt % 2 === 0 ? ctx.app : second.app;
      expect((await request(instance).post("/api/auth/login").send({ username: "shared-limit", password: "wrong" })).status).toBe(401);
    }
    expect((await request(second.app).post("/api/auth/login").send({ username: "shared-limit", password: "right-password" })).status).toBe(
      429,
    );
    expect((await request(ctx.app).post("/api/auth/login").send({ username: "shared-limit", password: "right-password" })).status).toBe(
      429,
    );
  });
});
