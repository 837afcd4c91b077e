import { eq, sql } from "drizzle-orm";
import request from "supertest";
import { sessions } from "../db/schema";
import { listenOn, openEventStream } from "../testing/event-stream-client";
import { useTestContext } from "../testing/test-context";

const ctx = useTestContext();

describe("the session cache", () => {
  it("answers a signed-in read without a query, and a write always reads its session", async () => {
    const user = await ctx.signUp();
    const read = () => request(ctx.app).get("/api/auth/user").set("Authorization", user.bearer);
    expect((await read()).status).toBe(200);
    // On Postgres the sign-up's own notifications may still be arriving, and a read that hears one is not kept.
    await vi.waitFor(async () => expect(await ctx.countQueries(read)).toBe(0));
    const write = () => request(ctx.app).patch(`/api/users/${user.id}`).set("Authorization", user.bearer).send({ firstName: "Renamed" });
    expect(await ctx.countQueries(write)).toBeGreaterThan(1);
    // The caller's own change shows on their next read.
    expect((await read()).body.firstName).toBe("Renamed");
  });

  // The embedded database runs statements one at a time, so the sign-out sent with the session's touch (a second
  // statement after its read) lands after the read, and its notification is handled before the read ends.
  it.runIf(process.env.QUORUM_TEST_DB !== "postgres")("keeps nothing of a read that a sign-out overtook", async () => {
    const user = await ctx.signUp();
    const read = () => request(ctx.app).get("/api/auth/user").set("Authorization", user.bearer);
    // Past the cache's age and due a touch of its last use.
    ctx.clock.advance(2 * 60_000);
    ctx.whenQuery(/^update "sessions" set "last_used_at"/, () => void ctx.db.delete(sessions).where(eq(sessions.userId, user.id)).then());
    // Read before the sign-out, answered as it was.
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(401);
  });

  // The embedded database's one connection cannot drop apart from the app's queries.
  it.runIf(process.env.QUORUM_TEST_DB === "postgres")(
    "is not trusted while the listening connection is down, and event streams end until it is back",
    async () => {
      const user = await ctx.signUp();
      const read = () => request(ctx.app).get("/api/auth/user").set("Authorization", user.bearer);
      await vi.waitFor(async () => expect(await ctx.countQueries(read)).toBe(0));
      const server = await listenOn(ctx.app);
      try {
        const stream = await openEventStream(server.url, user.bearer);
        expect(stream.status).toBe(200);

        await ctx.db.execute(
          sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = 'quorum-listener'`,
        );
        await vi.waitFor(() => expect(ctx.deps.live.isListening()).toBe(false));
        await stream.ended;
        // The lost connection is opened again; until then each read asks the database.
        await vi.waitFor(() => expect(ctx.deps.live.isListening()).toBe(true), { timeout: 10_000 });
        expect(await ctx.countQueries(read)).toBeGreaterThan(0);
        await vi.waitFor(async () => expect(await ctx.countQueries(read)).toBe(0));
        const again = await openEventStream(server.url, user.bearer);
        expect(again.status).toBe(200);
        again.close();
      } finally {
        await server.close();
      }
    },
  );
});
