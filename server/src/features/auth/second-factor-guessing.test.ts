import { eq } from "drizzle-orm";
import { auditEvents, authChallenges, secondFactorFailures, users } from "../../db/schema";
import { enableTotp, nextTotpCode, startSignIn } from "../../testing/second-factor-fixtures";
import { passkeyFixtures } from "../../testing/passkey-fixtures";
import type { SignedUp } from "../../testing/test-context";
import { useMailingContext } from "../../testing/test-smtp";

const { ctx, api, smtp, appUrl } = await useMailingContext();
// Hours apart: each test's failures stay clear of the next's sign-in limit and lock window.
beforeEach(() => ctx.clock.advance(2 * 60 * 60_000));

const secondStep = (challenge: string, code: string) => api().post("/api/auth/login/second-factor").send({ challenge, code });
const signInExpired = { message: "The sign-in has expired. Please sign in again." };

async function userWithApp(): Promise<SignedUp & { secret: string }> {
  const user = await ctx.signUp();
  const { secret } = await enableTotp(ctx, user);
  await smtp.deliver(ctx);
  return { ...user, secret };
}

const lockOf = async (userId: number) =>
  (
    await ctx.db.select({ until: users.secondFactorLockedUntil, locks: users.secondFactorLocks }).from(users).where(eq(users.id, userId))
  )[0]!;

/** Five wrong codes on a new sign-in of the user: each a 401, five failed second steps. */
async function fiveWrongCodes(user: SignedUp): Promise<void> {
  const { challenge } = await startSignIn(ctx, user);
  for (let attempt = 0; attempt < 5; attempt++) expect((await secondStep(challenge, "000000")).status).toBe(401);
}

describe("guessing the codes of a sign-in", () => {
  it("the sixth code on one challenge finds it gone: after five wrong codes even the right one answers as an expired sign-in", async () => {
    const user = await userWithApp();
    const { challenge } = await startSignIn(ctx, user);
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await secondStep(challenge, "000000");
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ message: "Invalid code" });
    }
    const sixth = await secondStep(challenge, await nextTotpCode(ctx, user.id, user.secret));
    expect(sixth.status).toBe(401);
    expect(sixth.body).toEqual(signInExpired);
    expect(sixth.body).not.toHaveProperty("token");
    // A new sign-in is open to the right code at once.
    const again = await startSignIn(ctx, user);
    const right = await secondStep(again.challenge, await nextTotpCode(ctx, user.id, user.secret));
    expect(right.status).toBe(200);
    ctx.noteSecret(right.body.token);
  });

  it("counts the tries of one challenge in the database: of eight wrong codes sent at once, five are checked", async () => {
    const user = await userWithApp();
    const { challenge } = await startSignIn(ctx, user);
    const answers = await Promise.all(Array.from({ length: 8 }, () => secondStep(challenge, "000000")));
    const bodies = answers.map((answer) => answer.body.message as string).sort();
    expect(answers.every((answer) => answer.status === 401)).toBe(true);
    expect(bodies.filter((message) => message === "Invalid code")).toHaveLength(5);
    expect(bodies.filter((message) => message === signInExpired.message)).toHaveLength(3);
    expect(await ctx.db.select().from(secondFactorFailures).where(eq(secondFactorFailures.userId, user.id))).toHaveLength(5);
    const [row] = await ctx.db.select({ failures: authChallenges.failures }).from(authChallenges).where(eq(authChallenges.userId, user.id));
    expect(row?.failures).toBe(5);
  });
});

describe("locking an account's second step", () => {
  it("locks it after 10 failures in an hour (429 with Retry-After, even for the right code), mails the holder at the first lock, and doubles each later lock", async () => {
    const user = await userWithApp();
    await fiveWrongCodes(user);
    // Past the minute of the sign-in limit, still within the hour.
    ctx.clock.advance(20 * 60_000);
    await fiveWrongCodes(user);
    const first = await lockOf(user.id);
    expect(first.locks).toBe(1);
    expect(first.until?.toISOString()).toBe(new Date(ctx.clock.now().getTime() + 15 * 60_000).toISOString());

    ctx.clock.advance(61_000);
    const { challenge } = await startSignIn(ctx, user);
    const locked = await secondStep(challenge, await nextTotpCode(ctx, user.id, user.secret));
    expect(locked.status).toBe(429);
    expect(locked.headers["retry-after"]).toBe(String(14 * 60 - 1));
    expect(locked.body).toEqual({ message: expect.stringContaining("locked") });

    const [notice, ...more] = await smtp.deliver(ctx, user.email);
    expect(more).toEqual([]);
    expect(notice?.subject).toBe("Security alert for your Quorum account");
    expect(notice?.text).toContain("Someone entered 10 wrong sign-in codes for your account within an hour");
    const [event] = await ctx.db.select().from(auditEvents).where(eq(auditEvents.action, "second_factor.locked"));
    expect(event).toMatchObject({ companyId: null, targetId: String(user.id), chainKey: 0 });

    // Once the lock ends, the failures before it no longer count; ten more without a right code in between lock it
    // again, twice as long.
    ctx.clock.advance(14 * 60_000);
    await fiveWrongCodes(user);
    expect((await lockOf(user.id)).locks).toBe(1);
    ctx.clock.advance(61_000);
    await fiveWrongCodes(user);
    const second = await lockOf(user.id);
    expect(second.locks).toBe(2);
    expect(second.until?.toISOString()).toBe(new Date(ctx.clock.now().getTime() + 30 * 60_000).toISOString());
    const retry = await secondStep((await startSignIn(ctx, user)).challenge, "000000");
    expect(retry.status).toBe(429);
    expect(retry.headers["retry-after"]).toBe(String(30 * 60));
    // Only the first lock of a series is mailed.
    expect(await smtp.deliver(ctx, user.email)).toEqual([]);
  });

  it("forgets the failures and locks at a right code: the next lock is a first one again (15 minutes, mailed)", async () => {
    const user = await userWithApp();
    await ctx.db
      .update(users)
      .set({ secondFactorLocks: 3, secondFactorLockedUntil: new Date(ctx.clock.now().getTime() - 60_000) })
      .where(eq(users.id, user.id));
    await fiveWrongCodes(user);
    const open = await secondStep((await startSignIn(ctx, user)).challenge, await nextTotpCode(ctx, user.id, user.secret));
    expect(open.status).toBe(200);
    ctx.noteSecret(open.body.token);
    expect(await lockOf(user.id)).toEqual({ until: null, locks: 0 });
    expect(await ctx.db.select().from(secondFactorFailures).where(eq(secondFactorFailures.userId, user.id))).toEqual([]);

    // Five failures before the right code no longer count: ten after it lock the account, as a first lock.
    ctx.clock.advance(61_000);
    await fiveWrongCodes(user);
    expect((await lockOf(user.id)).locks).toBe(0);
    ctx.clock.advance(61_000);
    await fiveWrongCodes(user);
    const lock = await lockOf(user.id);
    expect(lock.locks).toBe(1);
    expect(lock.until?.toISOString()).toBe(new Date(ctx.clock.now().getTime() + 15 * 60_000).toISOString());
    const [notice, ...more] = await smtp.deliver(ctx, user.email);
    expect(more).toEqual([]);
    expect(notice?.text).toContain("Someone entered 10 wrong sign-in codes for your account within an hour");
  });

  it("locks for at most a day, however many locks came before", async () => {
    const user = await userWithApp();
    for (const locks of [7, 5000]) {
      await ctx.db.update(users).set({ secondFactorLocks: locks, secondFactorLockedUntil: null }).where(eq(users.id, user.id));
      await fiveWrongCodes(user);
      ctx.clock.advance(61_000);
      await fiveWrongCodes(user);
      const lock = await lockOf(user.id);
      expect(lock.locks, `after ${locks} locks`).toBe(locks + 1);
      expect(lock.until?.toISOString(), `after ${locks} locks`).toBe(new Date(ctx.clock.now().getTime() + 24 * 60 * 60_000).toISOString());
      const locked = await secondStep((await startSignIn(ctx, user)).challenge, await nextTotpCode(ctx, user.id, user.secret));
      expect(locked.status).toBe(429);
      expect(locked.headers["retry-after"]).toBe(String(24 * 60 * 60));
      ctx.clock.advance(25 * 60 * 60_000);
    }
  });

  it("counts failed passkey second steps and wrong codes at re-authentication towards the lock", async () => {
    const user = await ctx.signUp();
    // The app first: its set-up leaves the session freshly proved for adding the passkey.
    const { secret } = await enableTotp(ctx, user);
    const { authenticator } = await passkeyFixtures(ctx, appUrl).withPasskey(user, "Key");
    const failures = async () => (await ctx.db.select().from(secondFactorFailures).where(eq(secondFactorFailures.userId, user.id))).length;

    // A passkey answer signed for another site fails the second step.
    const { challenge } = await startSignIn(ctx, user);
    const passkeyOptions = await api().post("/api/auth/passkeys/login-options").send({ challenge });
    expect(passkeyOptions.status).toBe(200);
    ctx.noteSecret(passkeyOptions.body.challenge);
    const phished = await api()
      .post("/api/auth/passkeys/login")
      .send({
        challenge: passkeyOptions.body.challenge,
        response: authenticator.authenticate(passkeyOptions.body.options, { origin: "https://evil.example" }),
      });
    expect(phished.status).toBe(401);
    expect(await failures()).toBe(1);

    const wrong = await api().post("/api/auth/reauth").set("Authorization", user.bearer).send({ password: user.password, code: "000000" });
    expect(wrong.status).toBe(400);
    expect(await failures()).toBe(2);

    // Locked, re-authentication with a code is refused too.
    await ctx.db
      .update(users)
      .set({ secondFactorLockedUntil: new Date(ctx.clock.now().getTime() + 60_000) })
      .where(eq(users.id, user.id));
    const locked = await api()
      .post("/api/auth/reauth")
      .set("Authorization", user.bearer)
      .send({ password: user.password, code: await nextTotpCode(ctx, user.id, secret) });
    expect(locked.status).toBe(429);
    expect(locked.headers["retry-after"]).toBe("60");
    const lockedPasskey = await api().post("/api/auth/passkeys/login-options").send({ challenge });
    const passkeyAnswer = await api()
      .post("/api/auth/passkeys/login")
      .send({ challenge: lockedPasskey.body.challenge, response: authenticator.authenticate(lockedPasskey.body.options) });
    expect(passkeyAnswer.status).toBe(429);

    // Once the lock is over, a passkey second step clears the failures and the count of locks.
    await ctx.db.update(users).set({ secondFactorLocks: 2 }).where(eq(users.id, user.id));
    ctx.clock.advance(61_000);
    const next = await startSignIn(ctx, user);
    const openOptions = await api().post("/api/auth/passkeys/login-options").send({ challenge: next.challenge });
    ctx.noteSecret(openOptions.body.challenge);
    const signedIn = await api()
      .post("/api/auth/passkeys/login")
      .send({ challenge: openOptions.body.challenge, response: authenticator.authenticate(openOptions.body.options) });
    expect(signedIn.status).toBe(200);
    ctx.noteSecret(signedIn.body.token);
    expect(await failures()).toBe(0);
    expect(await lockOf(user.id)).toEqual({ until: null, locks: 0 });
    await smtp.deliver(ctx);
  });
});
