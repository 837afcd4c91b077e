import { and, eq } from "drizzle-orm";
import type { Express } from "express";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import request from "supertest";
import { createApp } from "./app";
import { readEnv } from "./env";
import { invitations, users } from "./db/schema";
import { createChainVerifications } from "./features/audit/audit.service";
import { defaultLimits, limitTable, limitsFromEnv, resolveLimits, type Limits } from "./limits";
import { listenOn, openEventStream, type OpenedStream } from "./testing/event-stream-client";
import { scheduleMeeting } from "./testing/factories";
import { reauthenticate } from "./testing/second-factor-fixtures";
import { useTestContext, type SignedUp } from "./testing/test-context";

// Each limit is hit once, over HTTP, on an app with small limits; the file's own accounts are made on the test
// context's app, whose limits are generous.
const small: Limits = resolveLimits({
  registrationsPerIp: 3,
  passwordResetsPerAddress: 2,
  passwordResetsPerIp: 3,
  verificationMailsPerAddress: 2,
  invitationsPerCompany: 3,
  invitationsPerAddress: 2,
  aiCallsPerCompany: 2,
  eventStreamsPerUser: 3,
  sessionsPerUser: 3,
});

const aiBase = "https://ai.test/v1";
const mockAi = setupServer(http.post(`${aiBase}/chat/completions`, () => HttpResponse.json({ error: "busy" }, { status: 503 })));

const ctx = useTestContext({ ai: { model: "test-model", apiKeyFromEnv: "sk-limits-test", baseUrlFromEnv: aiBase, timeoutMs: 300 } });
let limited: Express;
let server: Awaited<ReturnType<typeof listenOn>>;
const opened: OpenedStream[] = [];

beforeAll(async () => {
  mockAi.listen({
    onUnhandledRequest: (req, print) => {
      if (new URL(req.url).hostname !== "127.0.0.1") print.error();
    },
  });
  // Behind a proxy, so each test can come from addresses of its own.
  limited = createApp({ ...ctx.deps, limits: small, trustProxy: true });
  server = await listenOn(limited);
});
afterEach(() => {
  for (const stream of opened.splice(0)) stream.close();
});
afterAll(async () => {
  await server.close();
  mockAi.close();
});

const hourMs = 60 * 60_000;
const dayMs = 24 * hourMs;

function expectRefused(response: request.Response, message: string): void {
  expect(response.status).toBe(429);
  expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
  expect(response.body).toEqual({ message });
}

describe("registrations", () => {
  let counter = 0;
  const register = (ip: string) => {
    counter += 1;
    return request(limited)
      .post("/api/auth/register")
      .set("X-Forwarded-For", ip)
      .send({ username: `registrant${counter}`, email: `registrant${counter}@example.com`, password: "correct horse battery" });
  };

  it("takes 3 an hour from one IP address here (LIMIT_REGISTRATIONS_PER_IP_HOUR): the 4th is 429 with Retry-After and makes no account", async () => {
    for (let count = 1; count <= 3; count += 1) expect((await register("203.0.113.1")).status).toBe(201);
    const refused = await register("203.0.113.1");
    expectRefused(refused, limitTable.registrationsPerIp.message);
    expect(Number(refused.headers["retry-after"])).toBe(3600);
    expect(
      await ctx.db
        .select()
        .from(users)
        .where(eq(users.username, `registrant${counter}`)),
    ).toEqual([]);
    // Another address registers; an hour later, so does the first.
    expect((await register("203.0.113.2")).status).toBe(201);
    ctx.clock.advance(hourMs);
    expect((await register("203.0.113.1")).status).toBe(201);
  });
});

describe("password-reset requests", () => {
  const askReset = (ip: string, email: string) =>
    request(limited).post("/api/auth/password-reset").set("X-Forwarded-For", ip).send({ email });

  it("take 2 a day for one address from one IP address here: a stranger's requests do not use up its holder's", async () => {
    const holder = await ctx.signUp();
    for (let count = 1; count <= 2; count += 1) expect((await askReset("198.51.100.1", holder.email)).status).toBe(202);
    expectRefused(await askReset("198.51.100.1", holder.email.toUpperCase()), limitTable.passwordResetsPerAddress.message);
    expect((await askReset("198.51.100.2", holder.email)).status).toBe(202);
  });

  it("take 3 an hour from one IP address here, whatever the addresses", async () => {
    for (let count = 1; count <= 3; count += 1) expect((await askReset("198.51.100.3", `reset.ip.${count}@example.com`)).status).toBe(202);
    expectRefused(await askReset("198.51.100.3", "reset.ip.4@example.com"), limitTable.passwordResetsPerIp.message);
  });
});

describe("confirmation mails", () => {
  const resend = (user: SignedUp) => request(limited).post("/api/auth/verify-email/resend").set("Authorization", user.bearer);
  const changeAddress = (user: SignedUp, email: string) =>
    request(limited).patch(`/api/users/${user.id}`).set("Authorization", user.bearer).send({ email });

  it("take 2 a day to one address asked by one account here; another account asking for the address uses up only its own", async () => {
    const holder = await ctx.signUp({ confirmAddress: false });
    const other = await ctx.signUp();
    await reauthenticate(ctx, other);
    for (let count = 1; count <= 2; count += 1) expect((await changeAddress(other, holder.email)).status).toBe(200);
    expectRefused(await changeAddress(other, holder.email), limitTable.verificationMailsPerAddress.message);

    for (let count = 1; count <= 2; count += 1) expect((await resend(holder)).status).toBe(202);
    expectRefused(await resend(holder), limitTable.verificationMailsPerAddress.message);
    ctx.clock.advance(dayMs);
    expect((await resend(holder)).status).toBe(202);
  });
});

describe("invitations", () => {
  const invite = (founder: SignedUp, companyId: number, email: string) =>
    request(limited).post(`/api/companies/${companyId}/members`).set("Authorization", founder.bearer).send({ email, role: "observer" });
  const invitationsTo = (companyId: number, email: string) =>
    ctx.db
      .select({ id: invitations.id })
      .from(invitations)
      .where(and(eq(invitations.companyId, companyId), eq(invitations.email, email)));

  it("take 2 a day to one address from all companies, and 3 a day from one company here; a refused one is not made", async () => {
    const first = await ctx.board("Inviting Ltd");
    const second = await ctx.board("Also Inviting Ltd");
    for (let count = 1; count <= 2; count += 1)
      expect((await invite(first.founder, first.company.id, "wanted@example.com")).status).toBe(202);
    expectRefused(await invite(first.founder, first.company.id, "wanted@example.com"), limitTable.invitationsPerAddress.message);
    expectRefused(await invite(second.founder, second.company.id, "wanted@example.com"), limitTable.invitationsPerAddress.message);
    expect(await invitationsTo(second.company.id, "wanted@example.com")).toEqual([]);

    // The refused one did not count for the company: one more goes, then the company's limit holds.
    expect((await invite(first.founder, first.company.id, "third@example.com")).status).toBe(202);
    expectRefused(await invite(first.founder, first.company.id, "fourth@example.com"), limitTable.invitationsPerCompany.message);
    expect(await invitationsTo(first.company.id, "fourth@example.com")).toEqual([]);
    expect((await invite(second.founder, second.company.id, "fourth@example.com")).status).toBe(202);
  });
});

describe("AI calls", () => {
  it("take 2 an hour per company here, agenda drafts and “Improve wording” together", async () => {
    const { founder } = await ctx.board("Curious Ltd");
    const meetingId = await scheduleMeeting(ctx.app, founder, new Date(ctx.clock.now().getTime() - dayMs));
    const generate = () => request(limited).post(`/api/meetings/${meetingId}/generate-agenda`).set("Authorization", founder.bearer);
    const improve = () =>
      request(limited).post(`/api/meetings/${meetingId}/minutes/draft`).set("Authorization", founder.bearer).send({ improve: true });
    // The AI answers with an error: the calls count all the same.
    expect((await generate()).status).toBe(502);
    expect((await improve()).status).toBe(200);
    expectRefused(await generate(), limitTable.aiCallsPerCompany.message);
    expectRefused(await improve(), limitTable.aiCallsPerCompany.message);
    ctx.clock.advance(hourMs);
    expect((await generate()).status).toBe(502);
  });
});

describe("event streams", () => {
  const stream = async (bearer: string) => {
    const result = await openEventStream(server.url, bearer);
    if (result.status === 200) opened.push(result);
    return result;
  };

  it("take 3 open at once per user here, across their sessions (429 with Retry-After)", async () => {
    const user = await ctx.signUp();
    for (let count = 1; count <= 3; count += 1) expect((await stream(user.bearer)).status).toBe(200);
    const signedIn = await request(ctx.app).post("/api/auth/login").send({ username: user.username, password: user.password });
    expect(signedIn.status).toBe(200);
    ctx.noteSecret(signedIn.body.token);
    for (const bearer of [user.bearer, `Bearer ${signedIn.body.token}`]) {
      const refused = await stream(bearer);
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(refused.body).toEqual({ message: limitTable.eventStreamsPerUser.message });
    }
  });
});

describe("sessions", () => {
  it("are 3 per user here: a sign-in beyond them ends the oldest, whose token stops working", async () => {
    const user = await ctx.signUp();
    const tokens = [user.token];
    for (let count = 1; count <= 3; count += 1) {
      ctx.clock.advance(1000);
      const signedIn = await request(limited).post("/api/auth/login").send({ username: user.username, password: user.password });
      expect(signedIn.status).toBe(200);
      ctx.noteSecret(signedIn.body.token);
      tokens.push(signedIn.body.token as string);
    }
    const statuses = await Promise.all(
      tokens.map(async (token) => (await request(limited).get("/api/auth/user").set("Authorization", `Bearer ${token}`)).status),
    );
    expect(statuses).toEqual([401, 200, 200, 200]);
  });
});

describe("audit verify", () => {
  it("runs once for concurrent calls and keeps its verdict until the chain's head changes (counted in queries)", async () => {
    const verify = createChainVerifications();
    const { founder, company } = await ctx.board("Audited Ltd");
    const audited = (email: string) =>
      request(ctx.app).post(`/api/companies/${company.id}/members`).set("Authorization", founder.bearer).send({ email, role: "observer" });
    expect((await audited("audited.one@example.com")).status).toBe(202);

    let verdict: unknown;
    const first = await ctx.countQueries(async () => (verdict = await verify(ctx.deps, company.id)));
    expect(verdict).toEqual({ ok: true, count: 1, headHash: expect.any(String) });
    // The head is read; nothing is recomputed.
    expect(await ctx.countQueries(() => verify(ctx.deps, company.id))).toBe(1);
    expect(first).toBeGreaterThan(1);

    // A new event moves the head: two calls at once read the head each and share one computation.
    expect((await audited("audited.two@example.com")).status).toBe(202);
    let verdicts: unknown[] = [];
    const both = await ctx.countQueries(
      async () => (verdicts = await Promise.all([verify(ctx.deps, company.id), verify(ctx.deps, company.id)])),
    );
    expect(both).toBe(first + 1);
    expect(verdicts).toEqual([
      { ok: true, count: 2, headHash: expect.any(String) },
      { ok: true, count: 2, headHash: expect.any(String) },
    ]);
  });
});

describe("the limits' settings", () => {
  it("read each LIMIT_… variable, and LIMITS_MULTIPLIER multiplies every count (the defaults when unset)", () => {
    expect(limitsFromEnv(readEnv({}))).toEqual(defaultLimits);
    const raised = limitsFromEnv(readEnv({ LIMITS_MULTIPLIER: "2.5", LIMIT_REGISTRATIONS_PER_IP_HOUR: "4", LIMIT_SESSIONS_PER_USER: "" }));
    expect(raised).toEqual({ ...resolveLimits({}, 2.5), registrationsPerIp: 10 });
    expect(raised.sessionsPerUser).toBe(125);
    // A fraction lowers them, never below one.
    expect(limitsFromEnv(readEnv({ LIMITS_MULTIPLIER: "0.001" })).aiCallsPerCompany).toBe(1);
  });

  it("refuse a count that is not a whole positive number, and a multiplier that is not positive", () => {
    expect(() => readEnv({ LIMIT_AI_CALLS_PER_COMPANY_HOUR: "0" })).toThrow(/LIMIT_AI_CALLS_PER_COMPANY_HOUR must be at least 1/);
    expect(() => readEnv({ LIMIT_EVENT_STREAMS_PER_USER: "2.5" })).toThrow(/LIMIT_EVENT_STREAMS_PER_USER must be a whole number/);
    expect(() => readEnv({ LIMITS_MULTIPLIER: "0" })).toThrow(/LIMITS_MULTIPLIER must be more than 0/);
    expect(() => readEnv({ LIMITS_MULTIPLIER: "lots" })).toThrow(/LIMITS_MULTIPLIER must be a number/);
  });
});
