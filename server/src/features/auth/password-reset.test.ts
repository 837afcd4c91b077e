import { createHash, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import request from "supertest";
import { passwordResetLifetimeMs } from "../../../../shared/identity";
import { accountTokens, auditEvents, secondFactorFailures, sessions, users } from "../../db/schema";
import { enableTotp, nextTotpCode, reauthenticate } from "../../testing/second-factor-fixtures";
import { linkTokenIn, type ReceivedMail } from "../../testing/smtp-capture";
import { startTestSmtp } from "../../testing/test-smtp";
import { createApp } from "../../app";
import { defaultLimits } from "../../limits";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();
const api = () => request(ctx.app);
let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
const inbox: ReceivedMail[] = [];

beforeAll(async () => {
  smtp = await startTestSmtp();
  await smtp.configure(ctx);
  // The installation's first account: every account below is an ordinary one that confirms its address by the link.
  await ctx.signUp({ confirmAddress: false });
});
afterAll(() => smtp.close());
// Every request of this file comes from one IP: each test starts in a new hour of its limit.
beforeEach(() => ctx.clock.advance(61 * 60_000));

/** Sends what the outbox holds and takes out of the inbox the mails to the address whose subject matches. */
async function mailsTo(address: string, subject: RegExp): Promise<ReceivedMail[]> {
  inbox.push(...(await smtp.deliver(ctx)));
  const mine = inbox.filter((mail) => mail.to.some((to) => to.toLowerCase() === address.toLowerCase()) && subject.test(mail.subject));
  for (const mail of mine) inbox.splice(inbox.indexOf(mail), 1);
  return mine;
}

const resetSubject = /Reset your Quorum password/;

/** The token of the reset link mailed to the address (exactly one mail expected). */
async function resetToken(address: string): Promise<string> {
  const mails = await mailsTo(address, resetSubject);
  expect(mails, `one reset mail to ${address}`).toHaveLength(1);
  const token = linkTokenIn(mails[0]!, "/reset-password");
  ctx.noteSecret(token);
  return token;
}

/** Signs up and confirms the address by the link mailed to it. */
async function verifiedUser(fields: Parameters<typeof ctx.signUp>[0] = {}): Promise<SignedUp> {
  const user = await ctx.signUp({ confirmAddress: false, ...fields });
  const [mail] = await mailsTo(user.email, /Confirm your e-mail address/);
  const token = linkTokenIn(mail!, "/verify-email");
  ctx.noteSecret(token);
  expect((await api().post("/api/auth/verify-email").send({ token })).status).toBe(200);
  return user;
}

const askReset = (email: string) => api().post("/api/auth/password-reset").send({ email });
const confirmReset = (token: string, newPassword = "a brand new password") =>
  api().post("/api/auth/password-reset/confirm").send({ token, newPassword });
const login = (username: string, password: string) => api().post("/api/auth/login").send({ username, password });

describe("forgot password", () => {
  it("mails a link to the verified address; following it sets the password, ends every session, and tells the holder", async () => {
    const user = await verifiedUser({ email: "forgetful@example.com", password: "the old password" });
    const otherSession = (await login(user.username, user.password)).body.token as string;
    ctx.noteSecret(otherSession);

    const asked = await askReset("Forgetful@Example.com");
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ message: expect.any(String) });
    const token = await resetToken("forgetful@example.com");
    const [stored] = await ctx.db
      .select()
      .from(accountTokens)
      .where(and(eq(accountTokens.userId, user.id), eq(accountTokens.purpose, "password-reset")));
    expect(stored!.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(stored!.expiresAt.getTime() - ctx.clock.now().getTime()).toBe(passwordResetLifetimeMs);

    const confirmed = await confirmReset(token, "a brand new password");
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ message: expect.any(String) });

    for (const bearer of [user.bearer, `Bearer ${otherSession}`]) {
      expect((await api().get("/api/auth/user").set("Authorization", bearer)).status).toBe(401);
    }
    expect(await ctx.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await login(user.username, "the old password")).status).toBe(401);
    const signedIn = await login("forgetful@example.com", "a brand new password");
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ id: user.id, emailVerified: true });

    const [notice] = await mailsTo("forgetful@example.com", /Security alert/);
    expect(notice!.text).toContain("Your password was reset");
    const [event] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "account.password_reset"), eq(auditEvents.targetId, String(user.id))));
    expect(event).toMatchObject({ actorId: user.id, companyId: null, details: { sessionsEnded: 2 } });

    // Once only.
    const reused = await confirmReset(token, "yet another password");
    expect(reused.status).toBe(410);
    expect(reused.body).toEqual({ message: expect.any(String) });
    expect((await login(user.username, "a brand new password")).status).toBe(200);
  });

  it("answers an unknown address and an unverified one exactly as a verified one, and mails only the verified holder", async () => {
    await verifiedUser({ email: "known.reset@example.com" });
    await ctx.signUp({ confirmAddress: false, email: "unproved.reset@example.com" });
    const answers = [
      await askReset("known.reset@example.com"),
      await askReset("unproved.reset@example.com"),
      await askReset("nobody.here@example.com"),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual(answers[0]!.body);
    }
    await resetToken("known.reset@example.com");
    expect(await mailsTo("unproved.reset@example.com", resetSubject)).toHaveLength(0);
    expect(await mailsTo("nobody.here@example.com", resetSubject)).toHaveLength(0);
  });

  it("refuses a link after 30 minutes or once a newer one was sent (410), and a forged or malformed token (400)", async () => {
    const user = await verifiedUser();
    await askReset(user.email);
    const expiring = await resetToken(user.email);
    ctx.clock.advance(passwordResetLifetimeMs + 1_000);
    expect((await confirmReset(expiring)).status).toBe(410);

    await askReset(user.email);
    const older = await resetToken(user.email);
    await askReset(user.email);
    const newer = await resetToken(user.email);
    expect((await confirmReset(older)).status).toBe(410);

    const forged = await confirmReset(randomBytes(32).toString("base64url"));
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ message: expect.any(String) });
    expect((await confirmReset("not a token!")).status).toBe(400);
    expect((await confirmReset(newer, "123")).status).toBe(400);
    expect((await login(user.username, user.password)).status).toBe(200);
    expect((await confirmReset(newer)).status).toBe(200);
  });

  it("lets one link set one password when it is used twice at once", async () => {
    const user = await verifiedUser();
    await askReset(user.email);
    const token = await resetToken(user.email);
    const answers = await Promise.all([confirmReset(token, "first racer pw"), confirmReset(token, "second racer pw")]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410]);
    const winner = answers[0]!.status === 200 ? "first racer pw" : "second racer pw";
    const loser = winner === "first racer pw" ? "second racer pw" : "first racer pw";
    expect((await login(user.username, winner)).status).toBe(200);
    expect((await login(user.username, loser)).status).toBe(401);
  });

  it("still asks for the second factor at the next sign-in", async () => {
    const user = await verifiedUser({ password: "before the reset" });
    await enableTotp(ctx, user);
    await askReset(user.email);
    expect((await confirmReset(await resetToken(user.email), "after the reset")).status).toBe(200);
    const next = await login(user.username, "after the reset");
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ secondFactorRequired: true, methods: expect.arrayContaining(["totp"]) });
    expect(next.body).not.toHaveProperty("token");
    ctx.noteSecret(next.body.challenge);
    const [row] = await ctx.db.select({ secondFactor: users.secondFactor }).from(users).where(eq(users.id, user.id));
    expect(row!.secondFactor).toBe(true);
  });

  it("ends what the old password opened: a change of address not yet confirmed (its link dies) and a sign-in waiting for its second step", async () => {
    const user = await verifiedUser({ password: "known to a phisher" });
    const app = await enableTotp(ctx, user);
    // Whoever had the password asked to move the account to their address, and started a sign-in.
    await reauthenticate(ctx, user, app.secret);
    const moved = await api().patch(`/api/users/${user.id}`).set("Authorization", user.bearer).send({ email: "phisher@evil.example" });
    expect(moved.status).toBe(200);
    const [confirmation] = await mailsTo("phisher@evil.example", /Confirm/);
    const phisherLink = linkTokenIn(confirmation!, "/verify-email");
    ctx.noteSecret(phisherLink);
    const started = await login(user.username, "known to a phisher");
    ctx.noteSecret(started.body.challenge);

    await askReset(user.email);
    expect((await confirmReset(await resetToken(user.email), "the holder's own")).status).toBe(200);

    expect((await api().post("/api/auth/verify-email").send({ token: phisherLink })).status).toBe(410);
    const [row] = await ctx.db.select({ email: users.email, pendingEmail: users.pendingEmail }).from(users).where(eq(users.id, user.id));
    expect(row).toEqual({ email: user.email, pendingEmail: null });
    const secondStep = await api()
      .post("/api/auth/login/second-factor")
      .send({ challenge: started.body.challenge, code: await nextTotpCode(ctx, user.id, app.secret) });
    expect(secondStep.status).toBe(401);
  });

  it("ends a change of address not yet confirmed when the password is changed too", async () => {
    const user = await verifiedUser({ password: "known to a phisher" });
    await reauthenticate(ctx, user);
    await api().patch(`/api/users/${user.id}`).set("Authorization", user.bearer).send({ email: "phisher2@evil.example" });
    const [confirmation] = await mailsTo("phisher2@evil.example", /Confirm/);
    const phisherLink = linkTokenIn(confirmation!, "/verify-email");
    ctx.noteSecret(phisherLink);
    const changed = await api()
      .patch(`/api/users/${user.id}/password`)
      .set("Authorization", user.bearer)
      .send({ currentPassword: "known to a phisher", newPassword: "the holder's own", confirmPassword: "the holder's own" });
    expect(changed.status).toBe(200);
    expect((await api().post("/api/auth/verify-email").send({ token: phisherLink })).status).toBe(410);
    expect((await api().get("/api/auth/user").set("Authorization", user.bearer)).body).toMatchObject({
      email: user.email,
      pendingEmail: null,
    });
  });

  it("clears a lock of the second step and the failures behind it", async () => {
    const user = await verifiedUser({ password: "before the lock" });
    const { secret } = await enableTotp(ctx, user);
    const now = ctx.clock.now().getTime();
    await ctx.db
      .update(users)
      .set({ secondFactorLocks: 3, secondFactorLockedUntil: new Date(now + 2 * 60 * 60_000) })
      .where(eq(users.id, user.id));
    await ctx.db.insert(secondFactorFailures).values({ userId: user.id, failedAt: new Date(now - 60_000) });
    await askReset(user.email);
    expect((await confirmReset(await resetToken(user.email), "after the lock")).status).toBe(200);
    const [row] = await ctx.db
      .select({ locks: users.secondFactorLocks, until: users.secondFactorLockedUntil })
      .from(users)
      .where(eq(users.id, user.id));
    expect(row).toEqual({ locks: 0, until: null });
    expect(await ctx.db.select().from(secondFactorFailures).where(eq(secondFactorFailures.userId, user.id))).toEqual([]);
    const next = await login(user.username, "after the lock");
    ctx.noteSecret(next.body.challenge);
    const second = await api()
      .post("/api/auth/login/second-factor")
      .send({ challenge: next.body.challenge, code: await nextTotpCode(ctx, user.id, secret) });
    expect(second.status).toBe(200);
    ctx.noteSecret(second.body.token);
  });

  it("takes 10 requests a day per address from one IP address (429 with Retry-After), the same whether an account holds it or not", async () => {
    // The default limits, but for the IP address's own, which these 22 requests would pass first.
    const limited = createApp({ ...ctx.deps, limits: { ...defaultLimits, passwordResetsPerIp: 100 } });
    const askLimited = (email: string) => request(limited).post("/api/auth/password-reset").send({ email });
    const user = await verifiedUser();
    for (const address of [user.email, "no.account.limit@example.com"]) {
      for (let count = 1; count <= 10; count += 1) expect((await askLimited(address)).status, address).toBe(202);
      const eleventh = await askLimited(address.toUpperCase());
      expect(eleventh.status, address).toBe(429);
      expect(Number(eleventh.headers["retry-after"])).toBeGreaterThan(0);
      expect(eleventh.body).toEqual({ message: expect.any(String) });
    }
    expect(await mailsTo(user.email, resetSubject)).toHaveLength(10);
    ctx.clock.advance(24 * 60 * 60_000);
    expect((await askLimited(user.email)).status).toBe(202);
    await mailsTo(user.email, resetSubject);
  });

  it("takes 20 requests an hour from one IP address (429 with Retry-After)", async () => {
    // This file's other requests from the same address have left the window.
    ctx.clock.advance(60 * 60_000);
    const limited = createApp({ ...ctx.deps, limits: defaultLimits });
    const askLimited = (email: string) => request(limited).post("/api/auth/password-reset").send({ email });
    for (let count = 1; count <= 20; count += 1) expect((await askLimited(`ip.limit.${count}@example.com`)).status).toBe(202);
    const refused = await askLimited("ip.limit.21@example.com");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
  });
});

describe("security notices", () => {
  const securitySubject = /Security alert/;

  it("go only to an address its holder proved: not to one merely typed at registration, nor as the old address of a change", async () => {
    const unproved = await ctx.signUp({ confirmAddress: false });
    const proved = await verifiedUser();
    for (const user of [unproved, proved]) await enableTotp(ctx, user);
    expect(await mailsTo(unproved.email, securitySubject)).toEqual([]);
    expect(await mailsTo(proved.email, securitySubject)).toHaveLength(1);

    const other = await ctx.signUp({ confirmAddress: false });
    await reauthenticate(ctx, other);
    const changed = await api().patch(`/api/users/${other.id}`).set("Authorization", other.bearer).send({ email: "other.new@example.com" });
    expect(changed.status).toBe(200);
    expect(await mailsTo(other.email, securitySubject)).toEqual([]);
    expect(await mailsTo("other.new@example.com", /Confirm/)).toHaveLength(1);
  });
});
