import { createHash, randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import request from "supertest";
import { verificationLifetimeMs } from "../../../../shared/identity";
import { accountTokens, auditEvents, mailOutbox, users } from "../../db/schema";
import { linkTokenIn } from "../../testing/smtp-capture";
import { startTestSmtp } from "../../testing/test-smtp";
import { createTestContext, useTestContext, type SignedUp } from "../../testing/test-context";
import { setPlatformAdmin } from "./auth.service";
import { createApp } from "../../app";
import { defaultLimits } from "../../limits";
import { emailVerificationFixtures } from "../../testing/email-verification-fixtures";

const ctx = useTestContext();
const api = () => request(ctx.app);
let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
const { mailsTo, confirmSubject, confirmationToken, verify, currentUser } = emailVerificationFixtures(ctx, () => smtp);

beforeAll(async () => {
  smtp = await startTestSmtp();
  await smtp.configure(ctx);
  // The installation's first account (verified and admin by rule): every account of the tests below comes after it.
  await ctx.signUp({ confirmAddress: false });
});
afterAll(() => smtp.close());

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
