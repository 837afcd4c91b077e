import { sql } from "drizzle-orm";
import request from "supertest";
import { databaseFailureOf } from "../database-failure";
import { users } from "../db/schema";
import { enableTotp, nextTotpCode, startSignIn } from "../testing/second-factor-fixtures";
import { useTestContext, type SignedUp } from "../testing/test-context";

/**
 * A write carrying a password hash fails at the database, whatever validation lets through: the table refuses
 * every new row. The 500 must be the plain JSON body, and the log line must hold the statement and the
 * SQLSTATE, never the values, the row Postgres quotes back, the token or the Authorization header.
 */
const ctx = useTestContext();
let founder: SignedUp;
let companyId: number;

beforeAll(async () => {
  const board = await ctx.board("Logged Board");
  founder = board.founder;
  companyId = board.company.id;
  // NOT VALID: the rows already there stay; every new one is refused (SQLSTATE 23514, and a detail quoting the row).
  await ctx.db.execute(sql`alter table users add constraint refuse_new_users check (false) not valid`);
});

const secrets = () => [founder.token, founder.bearer, "$argon2", "register-Secret-42", "member-Secret-43"];

function expectInternalError(response: request.Response) {
  expect(response.status).toBe(500);
  expect(response.headers["content-type"]).toMatch(/application\/json/);
  expect(response.body).toEqual({ message: "Internal error", requestId: response.headers["x-request-id"] });
}

function errorLineOf(response: request.Response) {
  const lines = ctx.logs.map((line) => JSON.parse(line) as { requestId?: string; level: number; err?: Record<string, unknown> });
  return lines.find((line) => line.requestId === response.headers["x-request-id"] && line.level === 50);
}

describe("a failed write that carries a password hash", () => {
  it("would expose the hash if logged as drizzle and Postgres report it", async () => {
    // The trap is real: the error's message holds the parameters and Postgres's detail quotes the row.
    const error = await ctx.db
      .insert(users)
      .values({ username: "trap", email: "trap@example.com", passwordHash: "$argon2id$v=19$trap" })
      .then(
        () => undefined,
        (caught: unknown) => caught as Error & { cause?: { detail?: string } },
      );
    expect(error?.message).toContain("$argon2id$v=19$trap");
    expect(databaseFailureOf(error)).toMatchObject({ sqlState: "23514", table: "users", constraint: "refuse_new_users" });
  });

  it("logs a registration's failure without the password, its hash or the row", async () => {
    const response = await request(ctx.app)
      .post("/api/auth/register")
      .send({ username: "loggedout", email: "loggedout@example.com", password: "register-Secret-42", firstName: "Lou" });
    expectInternalError(response);
    expect(errorLineOf(response)?.err).toMatchObject({
      sqlState: "23514",
      constraint: "refuse_new_users",
      statement: expect.stringContaining('insert into "users"'),
    });
  });

  it("logs an add-member-with-password failure without the password, its hash, the token or the header", async () => {
    const response = await request(ctx.app)
      .post(`/api/companies/${companyId}/members`)
      .set("Authorization", founder.bearer)
      .set("Cookie", `quorum_session=${founder.token}`)
      .send({ email: "newdirector@example.com", firstName: "Nina", lastName: "Director", role: "member", password: "member-Secret-43" });
    expectInternalError(response);
    expect(errorLineOf(response)?.err).toMatchObject({ sqlState: "23514", statement: expect.stringContaining('insert into "users"') });
  });

  it("left no secret anywhere in the captured log", () => {
    const all = ctx.logs.join("\n");
    expect(ctx.logs.length).toBeGreaterThan(3);
    for (const secret of secrets()) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/Failing row|params/);
  });
});

describe("a failed second step of a sign-in", () => {
  it("logs the failure without the authenticator's secret, the code, a recovery code or the challenge", async () => {
    // Turning the app on updates the user: the users table takes writes again.
    await ctx.db.execute(sql`alter table users drop constraint refuse_new_users`);
    const { secret, recoveryCodes } = await enableTotp(ctx, founder);
    const { challenge } = await startSignIn(ctx, founder);
    const wrong = await request(ctx.app).post("/api/auth/login/second-factor").send({ challenge, code: "000000" });
    expect(wrong.status).toBe(401);
    // The session the right code would open cannot be written: the second step fails at the database.
    await ctx.db.execute(sql`alter table sessions add constraint refuse_new_sessions check (false) not valid`);
    try {
      const code = await nextTotpCode(ctx, founder.id, secret);
      const withCode = await request(ctx.app).post("/api/auth/login/second-factor").send({ challenge, code });
      expectInternalError(withCode);
      expect(errorLineOf(withCode)?.err).toMatchObject({ statement: expect.stringContaining('insert into "sessions"') });
      expectInternalError(await request(ctx.app).post("/api/auth/login/second-factor").send({ challenge, code: recoveryCodes[0] }));

      const all = ctx.logs.join("\n");
      for (const secretValue of [secret, challenge, ...recoveryCodes]) expect(all).not.toContain(secretValue);
      expect(all).not.toMatch(new RegExp(`(?<![0-9A-Za-z])${code}(?![0-9A-Za-z])`));
      expect(all).not.toMatch(/Failing row|params/);
    } finally {
      await ctx.db.execute(sql`alter table sessions drop constraint refuse_new_sessions`);
    }
  });
});
