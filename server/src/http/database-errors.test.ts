import { randomBytes } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import express from "express";
import request from "supertest";
import { useTestContext } from "../testing/test-context";
import { errorHandler, unstorableValueMessage, unstorableValueStates } from "./errors";
import { requestContext } from "./request-context";

const ctx = useTestContext();
beforeAll(async () => {
  await ctx.db.execute(sql`create table bad_input_probe (short varchar(2), indexed text)`);
  await ctx.db.execute(sql`create index bad_input_probe_indexed on bad_input_probe (indexed)`);
});

const logLines = () => ctx.logs.map((line) => JSON.parse(line) as Record<string, unknown> & { err?: Record<string, unknown> });

/** Each SQLSTATE the error handler maps to 400, provoked for real on this test's database (PGlite or Postgres). */
const provokers: Record<string, SQL> = {
  "22021": sql`select ${"a\u0000b"}::text`,
  "22P05": sql`select ${'"\\u0000"'}::jsonb`,
  "22003": sql`select ${"99999999999"}::integer`,
  "22008": sql`select ${"0000-01-01"}::date`,
  "22007": sql`select ${"next tuesday at noon"}::timestamptz`,
  "22009": sql`select ${new Date("+010000-01-01T00:00:00Z").toISOString()}::timestamptz`,
  "22001": sql`insert into bad_input_probe (short) values (${"abc"})`,
  // Random text does not compress, so its index entry cannot fit.
  "54000": sql`insert into bad_input_probe (indexed) values (${randomBytes(12_000).toString("base64")})`,
  "22P02": sql`select ${"twelve"}::integer`,
};

describe("the error handler's net for values the database refuses", () => {
  // The handler alone, behind a route that sends the query: what any route would meet, on either driver.
  const probeApp = () => {
    const app = express();
    app.use(requestContext(ctx.deps.logger));
    app.get("/probe/:sqlState", async (req) => {
      await ctx.db.execute(provokers[req.params.sqlState]!);
    });
    app.get("/division-by-zero", async () => {
      await ctx.db.execute(sql`select 1 / ${0}::integer`);
    });
    app.use(errorHandler);
    return app;
  };

  it.each([...unstorableValueStates.keys()])("answers SQLSTATE %s with 400 JSON and a warning naming it", async (sqlState) => {
    const response = await request(probeApp()).get(`/probe/${sqlState}`);
    expect(response.status).toBe(400);
    expect(response.headers["content-type"]).toMatch(/application\/json/);
    expect(response.body).toEqual({ message: unstorableValueMessage });
    const warning = logLines().find((line) => line.requestId === response.headers["x-request-id"] && line.level === 40);
    expect(warning).toMatchObject({ sqlState, msg: "the database refused a value in the request", err: { sqlState } });
    expect(warning!.err!.statement).toEqual(expect.stringMatching(/\$1/));
    // The request id is random hex (it once held "abcd"): the rest of the line is searched for the values.
    const { requestId: _requestId, ...rest } = warning!;
    expect(JSON.stringify(rest)).not.toMatch(/params|detail|abc|twelve|99999999999|tuesday|010000/);
  });

  it("leaves other database errors to the 500 path", async () => {
    const response = await request(probeApp()).get("/division-by-zero");
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ message: "Internal error", requestId: response.headers["x-request-id"] });
  });
});

describe("malformed values through the API", () => {
  // Validation may come to refuse these first; either way the answer is a 400 with the JSON body, never a 500.
  const expectRefused = (response: request.Response) => {
    expect(response.status).toBe(400);
    expect(response.headers["content-type"]).toMatch(/application\/json/);
    expect(response.body).toEqual(expect.objectContaining({ message: expect.any(String) }));
  };

  it("refuses a NUL character in a registration's username or first name", async () => {
    const body = (name: string) => ({ username: name, email: `${name.replace(/\0/g, "")}@example.com`, password: "correct horse battery" });
    expectRefused(await request(ctx.app).post("/api/auth/register").send(body("nul\u0000name")));
    expectRefused(
      await request(ctx.app)
        .post("/api/auth/register")
        .send({ ...body("nulfirst"), firstName: "Ann\u0000" }),
    );
  });

  it("refuses a NUL character in a sign-in and a 1 MB username", async () => {
    expectRefused(await request(ctx.app).post("/api/auth/login").send({ username: "someone\u0000", password: "whatever1" }));
    const huge = randomBytes(768 * 1024).toString("base64");
    expectRefused(await request(ctx.app).post("/api/auth/login").send({ username: huge, password: "whatever1" }));
  });

  it("refuses a NUL character in a company's name", async () => {
    const user = await ctx.signUp();
    const response = await request(ctx.app)
      .post("/api/companies")
      .set("Authorization", user.bearer)
      .send({ name: "Acme\u0000", industry: "energy", location: "Nairobi, Kenya", stage: "seed" });
    expectRefused(response);
  });

  it("never logs the rejected values", async () => {
    const all = ctx.logs.join("\n");
    expect(all).not.toContain("correct horse battery");
    expect(all).not.toContain("$argon2");
    expect(all).not.toMatch(/\\u0000/);
  });
});
