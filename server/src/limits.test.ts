import { and, eq } from "drizzle-orm";
import type { Express } from "express";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import request from "supertest";
import { createApp } from "./app";
import { readEnv } from "./env";
import { companies, invitations, mailOutbox, users } from "./db/schema";
import { createChainVerifications } from "./features/audit/audit.service";
import { recordAttemptWithinLimit } from "./features/auth/auth.service";
import { passwordResetRequestedMessage } from "./features/auth/password-reset.service";
import { defaultLimits, limitTable, limitsFromEnv, resolveLimits, type Limits } from "./limits";
import { listenOn, openEventStream, type OpenedStream } from "./testing/event-stream-client";
import { addMember, createCompany, scheduleMeeting } from "./testing/factories";
import { reauthenticate } from "./testing/second-factor-fixtures";
import { useTestContext, type SignedUp } from "./testing/test-context";

// Each limit is hit once, over HTTP, on an app with small limits; the file's own accounts are made on the test
// context's app, whose limits are generous.
const small: Limits = resolveLimits({
  registrationsPerIp: 3,
  passwordResetsPerAddress: 2,
  passwordResetMailsPerAddress: 3,
  passwordResetsPerIp: 3,
  verificationMailsPerAddress: 2,
  invitationsPerCompany: 3,
  invitationsPerAddress: 2,
  invitationsPerInviter: 4,
  companiesPerUser: 2,
  aiCallsPerCompany: 2,
  aiCallsPerUser: 3,
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

  it("count an IPv6 client as its /64, and an IPv4 address mapped into IPv6 as the IPv4 address", async () => {
    for (const ip of ["2001:db8:7:1::1", "2001:db8:7:1::2", "2001:db8:7:1:ffff:ffff:ffff:ffff"])
      expect((await register(ip)).status).toBe(201);
    expectRefused(await register("2001:db8:7:1:abcd::9"), limitTable.registrationsPerIp.message);
    expect((await register("2001:db8:7:2::1")).status).toBe(201);

    for (let count = 1; count <= 3; count += 1) expect((await register("::ffff:203.0.113.9")).status).toBe(201);
    expectRefused(await register("203.0.113.9"), limitTable.registrationsPerIp.message);
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

  it("count an IPv6 client as its /64, for one address and in all", async () => {
    const holder = await ctx.signUp();
    expect((await askReset("2001:db8:8:1::1", holder.email)).status).toBe(202);
    expect((await askReset("2001:db8:8:1::2", holder.email)).status).toBe(202);
    expectRefused(await askReset("2001:db8:8:1::3", holder.email), limitTable.passwordResetsPerAddress.message);
    expectRefused(await askReset("2001:db8:8:1:1::1", "reset.v6@example.com"), limitTable.passwordResetsPerIp.message);
    expect((await askReset("2001:db8:8:2::1", holder.email)).status).toBe(202);
  });

  it("send 3 mails a day to one address here, whoever asks: past that the answer is the usual 202 and nothing is sent", async () => {
    const holder = await ctx.signUp();
    const resetMails = async () =>
      (await ctx.db.select({ message: mailOutbox.message }).from(mailOutbox).where(eq(mailOutbox.toAddress, holder.email))).filter(
        ({ message }) => message.type === "password-reset",
      ).length;
    for (let network = 1; network <= 5; network += 1) {
      const answer = await askReset(`198.51.100.${20 + network}`, holder.email);
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({ message: passwordResetRequestedMessage });
    }
    expect(await resetMails()).toBe(3);
    ctx.clock.advance(dayMs);
    expect((await askReset("198.51.100.30", holder.email)).status).toBe(202);
    expect(await resetMails()).toBe(4);
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

  it("take 2 a day from one company to one address, and 3 a day from one company here; a refused one is not made", async () => {
    const first = await ctx.board("Inviting Ltd");
    const second = await ctx.board("Also Inviting Ltd");
    for (let count = 1; count <= 2; count += 1)
      expect((await invite(first.founder, first.company.id, "wanted@example.com")).status).toBe(202);
    expectRefused(await invite(first.founder, first.company.id, "wanted@example.com"), limitTable.invitationsPerAddress.message);
    // Another company's invitations to the address do not use up this one's: a stranger cannot keep a board from
    // inviting its own member.
    expect((await invite(second.founder, second.company.id, "wanted@example.com")).status).toBe(202);
    expect(await invitationsTo(second.company.id, "wanted@example.com")).toHaveLength(1);

    // The refused one did not count for the company: one more goes, then the company's limit holds.
    expect((await invite(first.founder, first.company.id, "third@example.com")).status).toBe(202);
    expectRefused(await invite(first.founder, first.company.id, "fourth@example.com"), limitTable.invitationsPerCompany.message);
    expect(await invitationsTo(first.company.id, "fourth@example.com")).toEqual([]);
    expect((await invite(second.founder, second.company.id, "fourth@example.com")).status).toBe(202);
  });

  it("take 4 a day from one inviter here, across all the companies they found; a refused one counts for no company", async () => {
    const { founder, company: first } = await ctx.board("Prolific Ltd");
    const second = await createCompany(ctx.db, { name: "Prolific Two Ltd", founderId: founder.id });
    for (let count = 1; count <= 3; count += 1) expect((await invite(founder, first.id, `prolific.${count}@example.com`)).status).toBe(202);
    expect((await invite(founder, second.id, "prolific.4@example.com")).status).toBe(202);
    expectRefused(await invite(founder, second.id, "prolific.5@example.com"), limitTable.invitationsPerInviter.message);
    expect(await invitationsTo(second.id, "prolific.5@example.com")).toEqual([]);

    // The second company sent one: another of its founders sends two more before its own limit.
    const partner = await ctx.signUp();
    await addMember(ctx.db, second.id, partner.id, "founder");
    for (let count = 5; count <= 6; count += 1)
      expect((await invite(partner, second.id, `prolific.${count}@example.com`)).status).toBe(202);
    expectRefused(await invite(partner, second.id, "prolific.7@example.com"), limitTable.invitationsPerCompany.message);
    ctx.clock.advance(dayMs);
    expect((await invite(founder, second.id, "prolific.7@example.com")).status).toBe(202);
  });
});

describe("founding companies", () => {
  const found = (user: SignedUp, name: string) =>
    request(limited)
      .post("/api/companies")
      .set("Authorization", user.bearer)
      .send({ name, industry: "technology", location: "Lisbon, Portugal", stage: "seed" });

  it("takes 2 a day per user here (LIMIT_COMPANIES_PER_USER_DAY): the 3rd is 429 with Retry-After and makes no company", async () => {
    const founder = await ctx.signUp();
    for (let count = 1; count <= 2; count += 1) expect((await found(founder, `Serial ${count} Ltd`)).status).toBe(201);
    const refused = await found(founder, "Serial 3 Ltd");
    expectRefused(refused, limitTable.companiesPerUser.message);
    expect(Number(refused.headers["retry-after"])).toBe(24 * 3600);
    expect(await ctx.db.select({ id: companies.id }).from(companies).where(eq(companies.name, "Serial 3 Ltd"))).toEqual([]);
    // Another user founds theirs; a day later, so does the first.
    expect((await found(await ctx.signUp(), "Serial 3 Ltd")).status).toBe(201);
    ctx.clock.advance(dayMs);
    expect((await found(founder, "Serial 4 Ltd")).status).toBe(201);
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

  it("take 3 an hour per user here, across all their companies; a call refused for the user counts for no company", async () => {
    const { founder } = await ctx.board("Asking Ltd");
    const past = new Date(ctx.clock.now().getTime() - dayMs);
    const firstMeeting = await scheduleMeeting(ctx.app, founder, past);
    const second = await createCompany(ctx.db, { name: "Asking Two Ltd", founderId: founder.id });
    const secondMeeting = await scheduleMeeting(ctx.app, founder, past);
    const generate = (user: SignedUp, meetingId: number) =>
      request(limited).post(`/api/meetings/${meetingId}/generate-agenda`).set("Authorization", user.bearer);
    for (let count = 1; count <= 2; count += 1) expect((await generate(founder, firstMeeting)).status).toBe(502);
    expect((await generate(founder, secondMeeting)).status).toBe(502);
    expectRefused(await generate(founder, secondMeeting), limitTable.aiCallsPerUser.message);

    // The second company made one call: another member of it makes one more, then its own limit holds.
    const partner = await ctx.signUp();
    await addMember(ctx.db, second.id, partner.id, "admin");
    expect((await generate(partner, secondMeeting)).status).toBe(502);
    expectRefused(await generate(partner, secondMeeting), limitTable.aiCallsPerCompany.message);
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

describe("failed sign-ins", () => {
  it("count an IPv6 client as its /64 against the 100 a minute per IP address", async () => {
    for (let attempt = 1; attempt <= 100; attempt += 1) {
      await recordAttemptWithinLimit(ctx.db, ctx.clock, null, `2001:db8:9:1::${attempt.toString(16)}`);
    }
    const refused = await recordAttemptWithinLimit(ctx.db, ctx.clock, null, "2001:db8:9:1:ffff::1").catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 429 });
    expect(await recordAttemptWithinLimit(ctx.db, ctx.clock, null, "2001:db8:9:2::1")).toEqual(expect.any(Number));
    ctx.clock.advance(60_000);
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
