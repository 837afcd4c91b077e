import { createHash, randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import request from "supertest";
import { verificationLifetimeMs } from "../../../../shared/identity";
import { accountTokens, auditEvents, mailOutbox, sessions, users } from "../../db/schema";
import { hashPassword } from "../../crypto/passwords";
import { linkTokenIn, type ReceivedMail } from "../../testing/smtp-capture";
import { startTestSmtp } from "../../testing/test-smtp";
import { createTestContext, useTestContext, type SignedUp, type TestContext } from "../../testing/test-context";
import { setPlatformAdmin } from "./auth.service";
import { createApp } from "../../app";
import { defaultLimits } from "../../limits";

const ctx = useTestContext();
const api = () => request(ctx.app);
let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
/** Every mail that arrived and was not yet read by a test, whoever it was for. */
const inbox: ReceivedMail[] = [];

beforeAll(async () => {
  smtp = await startTestSmtp();
  await smtp.configure(ctx);
  // The installation's first account (verified and admin by rule): every account of the tests below comes after it.
  await ctx.signUp({ confirmAddress: false });
});
afterAll(() => smtp.close());

/** Sends what the outbox holds and answers, and takes out of the inbox, the mails to the address (matching `subject`). */
async function mailsTo(target: TestContext, address: string, subject?: RegExp): Promise<ReceivedMail[]> {
  inbox.push(...(await smtp.deliver(target)));
  const mine = inbox.filter(
    (mail) => mail.to.some((to) => to.toLowerCase() === address.toLowerCase()) && (!subject || subject.test(mail.subject)),
  );
  for (const mail of mine) inbox.splice(inbox.indexOf(mail), 1);
  return mine;
}

const confirmSubject = /Confirm your e-mail address/;

/** The token of the latest confirmation link mailed to the address. */
async function confirmationToken(address: string, target: TestContext = ctx): Promise<string> {
  const mails = await mailsTo(target, address, confirmSubject);
  expect(mails.length, `a confirmation mail to ${address}`).toBeGreaterThan(0);
  const token = linkTokenIn(mails.at(-1)!, "/verify-email");
  target.noteSecret(token);
  return token;
}

const verify = (token: string, target: TestContext = ctx) => request(target.app).post("/api/auth/verify-email").send({ token });
const currentUser = (user: { bearer: string }) => api().get("/api/auth/user").set("Authorization", user.bearer);

/**
 * Marks the session as having just re-proved its holder. `POST /api/auth/reauth` is not on this branch yet, so the
 * test writes `sessions.reauth_at` itself, for the session found by its token's SHA-256, as that route would.
 */
async function proveSessionFresh(user: { token: string }): Promise<void> {
  const tokenHash = createHash("sha256").update(user.token).digest("hex");
  const updated = await ctx.db.update(sessions).set({ reauthAt: ctx.clock.now() }).where(eq(sessions.tokenHash, tokenHash)).returning();
  expect(updated).toHaveLength(1);
}

/** Signs up and follows the confirmation link from the mail: an account whose address is verified. */
async function verifiedUser(fields: Parameters<TestContext["signUp"]>[0] = {}): Promise<SignedUp> {
  const user = await ctx.signUp({ confirmAddress: false, ...fields });
  expect((await verify(await confirmationToken(user.email))).status).toBe(200);
  return user;
}

describe("registration and the confirmation link", () => {
  it("registers unverified, mails a link to the address, and following it verifies the address", async () => {
    const user = await ctx.signUp({ confirmAddress: false, email: "Ada.Verify@example.com" });
    expect(user).toMatchObject({ email: "Ada.Verify@example.com", emailVerified: false, pendingEmail: null, isPlatformAdmin: false });

    const [mail, ...others] = await mailsTo(ctx, "ada.verify@example.com", confirmSubject);
    expect(others).toHaveLength(0);
    // The mail names the account, so that the holder of an address someone else registered can tell it is not theirs.
    expect(mail!.text).toContain(
      `Confirm that Ada.Verify@example.com is yours, for the Quorum account with the username ${user.username},`,
    );
    expect(mail!.text).toContain("If you did not create this account, ignore this e-mail: nothing happens unless you confirm.");
    const token = linkTokenIn(mail!, "/verify-email");
    ctx.noteSecret(token);
    // Only the token's SHA-256 is kept, and the outbox held it sealed.
    const stored = await ctx.db.select().from(accountTokens).where(eq(accountTokens.userId, user.id));
    expect(stored).toEqual([
      expect.objectContaining({ purpose: "verify-email", tokenHash: createHash("sha256").update(token).digest("hex") }),
    ]);
    expect(stored[0]!.expiresAt.getTime() - ctx.clock.now().getTime()).toBe(verificationLifetimeMs);
    const queued = await ctx.db.select({ message: mailOutbox.message }).from(mailOutbox).where(eq(mailOutbox.userId, user.id));
    expect(JSON.stringify(queued)).not.toContain(token);

    const verified = await verify(token);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ id: user.id, email: "Ada.Verify@example.com", emailVerified: true, pendingEmail: null });
    expect(verified.body).not.toHaveProperty("token");
    expect((await currentUser(user)).body).toMatchObject({ emailVerified: true, pendingEmail: null });
    const login = await api().post("/api/auth/login").send({ username: user.username, password: user.password });
    expect(login.body).toMatchObject({ id: user.id, emailVerified: true, pendingEmail: null });
  });

  it("takes a link once (410 after), refuses a forged or malformed token with 400, and answers the error body", async () => {
    const user = await ctx.signUp({ confirmAddress: false });
    const token = await confirmationToken(user.email);
    expect((await verify(token)).status).toBe(200);

    const again = await verify(token);
    expect(again.status).toBe(410);
    expect(again.body).toEqual({ message: expect.stringMatching(/already used/) });

    const forged = await verify(randomBytes(32).toString("base64url"));
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ message: expect.any(String) });
    for (const malformed of ["", "not a token!", "x".repeat(500)]) {
      const response = await verify(malformed);
      expect(response.status, malformed).toBe(400);
      expect(response.body.message).toEqual(expect.any(String));
    }
  });

  it("lets two requests with one link make one verification", async () => {
    const user = await ctx.signUp({ confirmAddress: false });
    const token = await confirmationToken(user.email);
    const answers = await Promise.all([verify(token), verify(token), verify(token)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410, 410]);
    const events = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "account.email_verified"), eq(auditEvents.targetId, String(user.id))));
    expect(events).toHaveLength(1);
  });

  it("lets a link expire after 24 hours (410)", async () => {
    const user = await ctx.signUp({ confirmAddress: false });
    const token = await confirmationToken(user.email);
    ctx.clock.advance(verificationLifetimeMs + 1_000);
    const expired = await verify(token);
    expect(expired.status).toBe(410);
    expect((await currentUser(user)).body.emailVerified).toBe(false);
  });

  it("resends a new link (202) whose sending ends the earlier ones, and refuses when nothing waits for proof (409)", async () => {
    const user = await ctx.signUp({ confirmAddress: false });
    const first = await confirmationToken(user.email);
    const resent = await api().post("/api/auth/verify-email/resend").set("Authorization", user.bearer);
    expect(resent.status).toBe(202);
    expect(resent.body).toEqual({ message: expect.any(String) });
    const second = await confirmationToken(user.email);
    expect(second).not.toBe(first);
    expect((await verify(first)).status).toBe(410);
    expect((await verify(second)).status).toBe(200);

    const nothingToProve = await api().post("/api/auth/verify-email/resend").set("Authorization", user.bearer);
    expect(nothingToProve.status).toBe(409);
    expect((await api().post("/api/auth/verify-email/resend")).status).toBe(401);
  });

  it("sends at most 10 links a day to one address asked for by one account (429 with Retry-After)", async () => {
    const limited = createApp({ ...ctx.deps, limits: defaultLimits });
    const resend = (user: SignedUp) => request(limited).post("/api/auth/verify-email/resend").set("Authorization", user.bearer);
    const user = await ctx.signUp({ confirmAddress: false });
    for (let count = 1; count <= 10; count += 1) expect((await resend(user)).status).toBe(202);
    const eleventh = await resend(user);
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers["retry-after"])).toBeGreaterThan(0);
    await mailsTo(ctx, user.email);
    ctx.clock.advance(24 * 60 * 60_000 + 1_000);
    expect((await resend(user)).status).toBe(202);
  });
});

describe("registrations naming one address", () => {
  it("from one IP address mail it at most 10 confirmations a day: an 11th registration with it is refused (429) before any account is made", async () => {
    // The default limits, but for the IP address's registrations, which this file makes many of.
    const limited = createApp({ ...ctx.deps, limits: { ...defaultLimits, registrationsPerIp: 1000 } });
    const register = (username: string) =>
      request(limited).post("/api/auth/register").send({ username, email: "much.registered@example.com", password: "a long password" });
    for (let count = 1; count <= 10; count += 1) {
      const registered = await register(`registered-${count}`);
      expect(registered.status).toBe(201);
      ctx.noteSecret(registered.body.token);
    }
    const eleventh = await register("eleventh-try");
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers["retry-after"])).toBeGreaterThan(0);
    expect(await ctx.db.select({ id: users.id }).from(users).where(eq(users.username, "eleventh-try"))).toEqual([]);
    await mailsTo(ctx, "much.registered@example.com");
  });
});

describe("an unverified address grants and reserves nothing", () => {
  it("lets a second account register with an unverified address, and the one that proves it takes it from the other", async () => {
    const first = await ctx.signUp({ confirmAddress: false, username: "claimant-one", email: "contested@example.com" });
    const second = await ctx.signUp({ confirmAddress: false, username: "claimant-two", email: "Contested@Example.com" });
    const [firstMail, secondMail] = await mailsTo(ctx, "contested@example.com", confirmSubject);
    const secondToken = linkTokenIn(secondMail!, "/verify-email");
    ctx.noteSecret(secondToken, linkTokenIn(firstMail!, "/verify-email"));

    const proved = await verify(secondToken);
    expect(proved.status).toBe(200);
    expect(proved.body).toMatchObject({ id: second.id, email: "Contested@Example.com", emailVerified: true });

    // The other account lost the address: it still signs in by username, and is told to give a new one.
    const [loser] = await ctx.db.select().from(users).where(eq(users.id, first.id));
    expect(loser).toMatchObject({ email: "", emailVerified: false });
    const login = await api().post("/api/auth/login").send({ username: "claimant-one", password: first.password });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ id: first.id, email: "", emailVerified: false, pendingEmail: null });
    expect((await currentUser(first)).body).toMatchObject({ email: "", emailVerified: false });

    // Its own link can no longer take the address (409), and the address is now reserved.
    const late = await verify(linkTokenIn(firstMail!, "/verify-email"));
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ message: expect.any(String) });
    const third = await api()
      .post("/api/auth/register")
      .send({ username: "claimant-three", email: "CONTESTED@example.com", password: "secret12" });
    expect(third.status).toBe(409);
    expect(third.body).toEqual({ message: "Email already registered" });
    const byAddress = await api().post("/api/auth/login").send({ username: "contested@example.com", password: second.password });
    expect(byAddress.body.id).toBe(second.id);
  });

  it("gives the address to one of two accounts that follow their links at the same moment, and 409 to the other", async () => {
    // A few rounds: on Postgres the two transactions interleave differently each time.
    for (const round of [1, 2, 3]) {
      const address = `both.at.once.${round}@example.com`;
      const one = await ctx.signUp({ confirmAddress: false, email: address });
      const two = await ctx.signUp({ confirmAddress: false, email: address });
      const tokens = (await mailsTo(ctx, address, confirmSubject)).map((mail) => linkTokenIn(mail, "/verify-email"));
      ctx.noteSecret(...tokens);
      expect(tokens).toHaveLength(2);
      const answers = await Promise.all(tokens.map((token) => verify(token)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const winner = answers.find((answer) => answer.status === 200)!.body.id as number;
      const loser = winner === one.id ? two.id : one.id;
      const rows = await ctx.db
        .select({ id: users.id, email: users.email, emailVerified: users.emailVerified })
        .from(users)
        .where(sql`${users.id} in (${one.id}, ${two.id})`);
      expect(rows.find((row) => row.id === winner)).toEqual({ id: winner, email: address, emailVerified: true });
      expect(rows.find((row) => row.id === loser)).toEqual({ id: loser, email: "", emailVerified: false });
    }
  });

  it("signs in by an address held only unverified as its oldest holder, and by a verified one as its prover", async () => {
    const older = await ctx.signUp({ confirmAddress: false, email: "shared-login@example.com", password: "older-password" });
    const newer = await ctx.signUp({ confirmAddress: false, email: "shared-login@example.com", password: "newer-password" });
    const login = (password: string) => api().post("/api/auth/login").send({ username: "shared-login@example.com", password });
    expect((await login("older-password")).body.id).toBe(older.id);
    expect((await login("newer-password")).status).toBe(401);

    const [, newerMail] = await mailsTo(ctx, "shared-login@example.com", confirmSubject);
    const token = linkTokenIn(newerMail!, "/verify-email");
    ctx.noteSecret(token);
    expect((await verify(token)).status).toBe(200);
    expect((await login("newer-password")).body.id).toBe(newer.id);
    expect((await login("older-password")).status).toBe(401);
  });

  it("signs the holder in by their proved address even when another account took it as its username while it was unproved", async () => {
    const address = "squatted@example.com";
    await ctx.signUp({ confirmAddress: false, username: address, email: address, password: "squatter-password" });
    const holder = await ctx.signUp({ confirmAddress: false, email: address, password: "holder-password" });
    const [, holderMail] = await mailsTo(ctx, address, confirmSubject);
    const token = linkTokenIn(holderMail!, "/verify-email");
    ctx.noteSecret(token);
    expect((await verify(token)).status).toBe(200);
    const signedIn = await api().post("/api/auth/login").send({ username: address, password: "holder-password" });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.id).toBe(holder.id);
    ctx.noteSecret(signedIn.body.token);
  });

  it("never signs in an account whose holder has not set a password, with the same 401 as a wrong password", async () => {
    // As "Add Member" makes one: a hash that would match, but no password of the holder's own.
    await ctx.db.insert(users).values({
      username: "placeholder-account",
      email: "placeholder@example.com",
      passwordHash: await hashPassword("admins-choice"),
      passwordSet: false,
    });
    const wrong = await api().post("/api/auth/login").send({ username: "placeholder-account", password: "not-it" });
    for (const name of ["placeholder-account", "placeholder@example.com"]) {
      const response = await api().post("/api/auth/login").send({ username: name, password: "admins-choice" });
      expect(response.status, name).toBe(401);
      expect(response.body).toEqual(wrong.body);
    }
  });
});

describe("changing the e-mail address", () => {
  const change = (user: SignedUp, body: Record<string, unknown>) =>
    api().patch(`/api/users/${user.id}`).set("Authorization", user.bearer).send(body);

  it("needs a fresh proof (401 reauth_required) and then changes nothing, the other fields included", async () => {
    const user = await verifiedUser();
    const refused = await change(user, { firstName: "Changed", email: "elsewhere@example.com" });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: "reauth_required", message: expect.any(String) });
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ email: user.email, pendingEmail: null, firstName: "Test" });
    expect(await mailsTo(ctx, "elsewhere@example.com")).toHaveLength(0);

    // A proof older than 10 minutes no longer counts.
    await proveSessionFresh(user);
    ctx.clock.advance(10 * 60_000 + 1_000);
    expect((await change(user, { email: "elsewhere@example.com" })).status).toBe(401);

    // Other fields need no proof.
    const names = await change(user, { firstName: "Renamed" });
    expect(names.status).toBe(200);
    expect(names.body).toMatchObject({ firstName: "Renamed", email: user.email, emailVerified: true, pendingEmail: null });
  });

  it("keeps the old address until the new one is confirmed, tells the old address, and records the request", async () => {
    const user = await verifiedUser({ email: "old.address@example.com" });
    await proveSessionFresh(user);
    const asked = await change(user, { email: "New.Address@example.com" });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({
      id: user.id,
      email: "old.address@example.com",
      emailVerified: true,
      pendingEmail: "New.Address@example.com",
    });
    expect((await currentUser(user)).body).toMatchObject({ email: "old.address@example.com", pendingEmail: "New.Address@example.com" });

    const [security] = await mailsTo(ctx, "old.address@example.com", /Security alert/);
    expect(security!.text).toContain("to N••@example.com was asked for");
    expect(security!.text).not.toContain("New.Address@example.com");
    const [confirmation] = await mailsTo(ctx, "new.address@example.com", confirmSubject);
    expect(confirmation!.text).toContain(
      `You asked to use New.Address@example.com for the Quorum account with the username ${user.username}. It replaces your current address`,
    );
    const token = linkTokenIn(confirmation!, "/verify-email");
    ctx.noteSecret(token);

    const [event] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "account.email_change_requested"), eq(auditEvents.targetId, String(user.id))));
    expect(event).toMatchObject({ actorId: user.id, companyId: null, details: { to: "N••@example.com" } });

    // Until confirmed, the old address still signs in; after, only the new one does.
    expect((await api().post("/api/auth/login").send({ username: "new.address@example.com", password: user.password })).status).toBe(401);
    const confirmed = await verify(token);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ id: user.id, email: "New.Address@example.com", emailVerified: true, pendingEmail: null });
    expect((await api().post("/api/auth/login").send({ username: "new.address@example.com", password: user.password })).body.id).toBe(
      user.id,
    );
    expect((await api().post("/api/auth/login").send({ username: "old.address@example.com", password: user.password })).status).toBe(401);
  });

  it("answers a change to an address another account proved as any other, and no link can take it from them", async () => {
    const holder = await verifiedUser({ email: "proved.elsewhere@example.com" });
    const asker = await verifiedUser();
    const unknownAddress = await verifiedUser();
    await proveSessionFresh(asker);
    await proveSessionFresh(unknownAddress);
    const toTaken = await change(asker, { email: "Proved.Elsewhere@example.com" });
    const toFree = await change(unknownAddress, { email: "free.address@example.com" });
    expect(toTaken.status).toBe(toFree.status);
    expect(Object.keys(toTaken.body).sort()).toEqual(Object.keys(toFree.body).sort());
    expect(toTaken.body).toMatchObject({ email: asker.email, pendingEmail: "Proved.Elsewhere@example.com" });

    const token = await confirmationToken("proved.elsewhere@example.com");
    const refused = await verify(token);
    expect(refused.status).toBe(409);
    const [holderRow] = await ctx.db.select().from(users).where(eq(users.id, holder.id));
    expect(holderRow).toMatchObject({ email: "proved.elsewhere@example.com", emailVerified: true });
    const [askerRow] = await ctx.db.select().from(users).where(eq(users.id, asker.id));
    expect(askerRow).toMatchObject({ email: asker.email, emailVerified: true });
    await mailsTo(ctx, "free.address@example.com");
  });

  it("drops a pending change to an address when another account proves it", async () => {
    const asker = await verifiedUser();
    await proveSessionFresh(asker);
    expect((await change(asker, { email: "race.target@example.com" })).status).toBe(200);
    const askerToken = await confirmationToken("race.target@example.com");

    const prover = await ctx.signUp({ confirmAddress: false, email: "race.target@example.com" });
    expect((await verify(await confirmationToken("race.target@example.com"))).status).toBe(200);
    expect((await currentUser(asker)).body).toMatchObject({ email: asker.email, pendingEmail: null });
    expect((await verify(askerToken)).status).toBe(409);
    expect((await currentUser(prover)).body).toMatchObject({ email: "race.target@example.com", emailVerified: true });
  });
});

describe("platform admins", () => {
  it("makes the first account of an empty database verified and admin, and PLATFORM_ADMINS wait for a proved address", async () => {
    const fresh = await createTestContext({ platformAdmins: ["Boss", "later-boss"] });
    try {
      await smtp.configure(fresh);
      const first = await fresh.signUp({ confirmAddress: false });
      expect(first).toMatchObject({ isPlatformAdmin: true, emailVerified: true });
      expect(await mailsTo(fresh, first.email)).toHaveLength(0);

      const boss = await fresh.signUp({ confirmAddress: false, username: "boss" });
      expect(boss).toMatchObject({ isPlatformAdmin: false, emailVerified: false });
      const check = (user: SignedUp) => request(fresh.app).get("/api/auth/check-platform-admin").set("Authorization", user.bearer);
      expect((await check(boss)).body).toEqual({ isPlatformAdmin: false });

      // At start-up, PLATFORM_ADMINS passes over an account whose address is not proved.
      expect(await setPlatformAdmin({ db: fresh.db }, ["boss"], true)).toBe(0);
      expect((await check(boss)).body).toEqual({ isPlatformAdmin: false });

      const proved = await verify(await confirmationToken(boss.email, fresh), fresh);
      expect(proved.body).toMatchObject({ id: boss.id, emailVerified: true, isPlatformAdmin: true });
      expect((await check(boss)).body).toEqual({ isPlatformAdmin: true });

      const worker = await fresh.signUp({ confirmAddress: false, username: "worker" });
      expect((await verify(await confirmationToken(worker.email, fresh), fresh)).body).toMatchObject({ isPlatformAdmin: false });

      // Once proved, start-up grants it.
      const later = await fresh.signUp({ confirmAddress: false, username: "later-boss" });
      await fresh.db.update(users).set({ emailVerified: true }).where(eq(users.id, later.id));
      expect(await setPlatformAdmin({ db: fresh.db }, ["later-boss"], true)).toBe(1);
      expect((await check(later)).body).toEqual({ isPlatformAdmin: true });
      await mailsTo(fresh, later.email);
    } finally {
      await fresh.close();
    }
  });

  it("counts the first account as the only one that needs no link", async () => {
    const [row] = await ctx.db
      .select({ verifiedWithoutLink: sql<number>`count(*)`.mapWith(Number) })
      .from(users)
      .where(sql`${users.emailVerified} and not exists (select 1 from ${accountTokens} where ${accountTokens.userId} = ${users.id})`);
    expect(row!.verifiedWithoutLink).toBe(1);
  });
});
