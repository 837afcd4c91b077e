import { and, eq } from "drizzle-orm";
import { auditEvents, secondFactorFailures, sessions } from "../../db/schema";
import { passkeyFixtures } from "../../testing/passkey-fixtures";
import { SoftwareAuthenticator } from "../../testing/software-authenticator";
import type { SignedUp } from "../../testing/test-context";
import { useMailingContext } from "../../testing/test-smtp";
import {
  expectReauthRequired,
  nextTotpCode,
  reauthenticate,
  sessionOf,
  signInWithTotp,
  totpCode,
} from "../../testing/second-factor-fixtures";

const { ctx, api, appUrl } = await useMailingContext();
const passkeys = passkeyFixtures(ctx, appUrl);
// Each test starts a few minutes later: the failures one provokes do not count against the next's limits, and no
// proof of one is still fresh in the next.
beforeEach(() => ctx.clock.advance(11 * 60_000));

const reauth = (user: { bearer: string }, body: object) => api().post("/api/auth/reauth").set("Authorization", user.bearer).send(body);
const startTotp = (user: { bearer: string }) => api().post("/api/auth/totp/setup").set("Authorization", user.bearer);
/** A security change of an account that has an app on: registering a passkey. */
const startPasskey = (user: { bearer: string }) => api().post("/api/auth/passkeys/register-options").set("Authorization", user.bearer);

describe("POST /api/auth/reauth", () => {
  it("proves a session with the password for 10 minutes: the very next request may make a security change, and after that it may not", async () => {
    const user = await ctx.signUp();
    // A sign-up (or a sign-in) alone is no fresh proof.
    expectReauthRequired(await startTotp(user));
    const proved = await reauth(user, { password: user.password });
    expect(proved.status).toBe(200);
    expect(proved.body).toEqual({ until: new Date(ctx.clock.now().getTime() + 10 * 60_000).toISOString() });
    const row = await sessionOf(ctx, user.id);
    expect(row?.reauthAt?.toISOString()).toBe(ctx.clock.now().toISOString());
    // The password alone proved no second factor.
    expect(row?.secondFactorAt).toBeNull();

    const setup = await startTotp(user);
    expect(setup.status).toBe(200);
    ctx.noteSecret(setup.body.secret);
    ctx.clock.advance(10 * 60_000 - 1_000);
    expect((await startTotp(user)).status).toBe(200);
    ctx.clock.advance(1_000);
    expectReauthRequired(await startTotp(user));
  });

  it("proves only the session that asked: a sign-in of the same account is not proved by it", async () => {
    const user = await ctx.signUp();
    const login = await api().post("/api/auth/login").send({ username: user.username, password: user.password });
    expect(login.status).toBe(200);
    ctx.noteSecret(login.body.token);
    const other = { bearer: `Bearer ${login.body.token}` };
    expectReauthRequired(await startTotp(other));
    await reauthenticate(ctx, user);
    expectReauthRequired(await startTotp(other));
    expect((await startTotp(user)).status).toBe(200);
  });

  it("refuses a wrong password with 400, counted with the sign-in limit: the 11th in a minute is 429, the right one too", async () => {
    const user = await ctx.signUp();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) statuses.push((await reauth(user, { password: "not the password" })).status);
    expect(statuses.every((status) => status === 400)).toBe(true);
    const limited = await reauth(user, { password: user.password });
    expect(limited.status).toBe(429);
    expect(limited.headers["retry-after"]).toBe("60");
    // The account's sign-in is held up by the same count.
    expect((await api().post("/api/auth/login").send({ username: user.username, password: user.password })).status).toBe(429);
    expect((await sessionOf(ctx, user.id))?.reauthAt).toBeNull();
    ctx.clock.advance(61_000);
    expect((await reauth(user, { password: user.password })).status).toBe(200);
  });

  it("asks for a current code where the account has an authenticator app, accepts it once, and counts the session as having passed it", async () => {
    const owner = await ctx.signUp();
    await reauthenticate(ctx, owner);
    const setup = await startTotp(owner);
    ctx.noteSecret(setup.body.secret);
    const secret = setup.body.secret as string;
    const confirmed = await api()
      .post("/api/auth/totp/confirm")
      .set("Authorization", owner.bearer)
      .send({ code: await nextTotpCode(ctx, owner.id, secret) });
    expect(confirmed.status).toBe(200);
    ctx.noteSecret(...confirmed.body.recoveryCodes);
    ctx.clock.advance(11 * 60_000);
    const user: SignedUp = { ...owner, ...(await signInWithTotp(ctx, owner, secret)), password: owner.password };
    await ctx.db.update(sessions).set({ secondFactorAt: null }).where(eq(sessions.userId, user.id));

    const noCode = await reauth(user, { password: user.password });
    expect(noCode.status).toBe(400);
    expect(noCode.body.errors).toEqual([{ path: "code", message: "Enter a code from your authenticator app as well" }]);
    const wrongCode = await reauth(user, { password: user.password, code: "000000" });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body.message).toBe("The password or the code is wrong");
    // A wrong code is a failed second step of the account, as at sign-in.
    expect(await ctx.db.select().from(secondFactorFailures).where(eq(secondFactorFailures.userId, user.id))).toHaveLength(1);
    const wrongPassword = await reauth(user, { password: "not it", code: await nextTotpCode(ctx, user.id, secret) });
    expect(wrongPassword.status).toBe(400);
    expectReauthRequired(await startPasskey(user));

    const code = await nextTotpCode(ctx, user.id, secret);
    const proved = await reauth(user, { password: user.password, code });
    expect(proved.status).toBe(200);
    // This session is proved, and passed the second factor with it; the owner's other session neither.
    const now = ctx.clock.now().toISOString();
    const rows = await ctx.db.select().from(sessions).where(eq(sessions.userId, user.id)).orderBy(sessions.id);
    expect(rows.map((row) => [row.reauthAt?.toISOString() === now, row.secondFactorAt?.toISOString() === now])).toEqual([
      [false, false],
      [true, true],
    ]);
    // The same code twice is a replay.
    expect((await reauth(user, { password: user.password, code })).status).toBe(400);
    // A recovery code serves too, once, and its use is recorded.
    const recovery = confirmed.body.recoveryCodes[0] as string;
    expect((await reauth(user, { password: user.password, code: recovery })).status).toBe(200);
    expect((await reauth(user, { password: user.password, code: recovery })).status).toBe(400);
    const used = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.actorId, user.id), eq(auditEvents.action, "second_factor.recovery_code_used")));
    expect(used).toHaveLength(1);
    // A code of a step long past is refused.
    expect((await reauth(user, { password: user.password, code: totpCode(secret, ctx.clock.now(), -10) })).status).toBe(400);
  });

  it("proves a session with a passkey that verifies its user, and not with one that does not", async () => {
    const user = await ctx.signUp();
    const noPasskey = await api().post("/api/auth/reauth/passkey-options").set("Authorization", user.bearer);
    expect(noPasskey.status).toBe(409);
    const { authenticator, passkey } = await passkeys.withPasskey(user, "Laptop");
    ctx.clock.advance(11 * 60_000);
    const remove = () => api().delete(`/api/auth/passkeys/${passkey.id}`).set("Authorization", user.bearer);
    expectReauthRequired(await remove());

    const options = async () => {
      const answer = await api().post("/api/auth/reauth/passkey-options").set("Authorization", user.bearer);
      expect(answer.status).toBe(200);
      ctx.noteSecret(answer.body.challenge);
      return answer.body as { challenge: string; options: Record<string, unknown> };
    };
    const first = await options();
    expect(first.options).toMatchObject({ rpId: "board.quorum.test", userVerification: "required" });
    // Without user verification (presence alone) it proves nothing, and the challenge is spent.
    const presenceOnly = new SoftwareAuthenticator({ origin: appUrl, userVerified: false });
    presenceOnly.credentials.push(...authenticator.credentials);
    const unverified = await api()
      .post("/api/auth/reauth/passkey")
      .set("Authorization", user.bearer)
      .send({ challenge: first.challenge, response: presenceOnly.authenticate(first.options) });
    expect(unverified.status).toBe(400);
    const spent = await api()
      .post("/api/auth/reauth/passkey")
      .set("Authorization", user.bearer)
      .send({ challenge: first.challenge, response: authenticator.authenticate(first.options) });
    expect(spent.status).toBe(400);
    expectReauthRequired(await remove());

    // Another user's session cannot answer this user's challenge.
    const second = await options();
    const stranger = await ctx.signUp();
    const foreign = await api()
      .post("/api/auth/reauth/passkey")
      .set("Authorization", stranger.bearer)
      .send({ challenge: second.challenge, response: authenticator.authenticate(second.options) });
    expect(foreign.status).toBe(400);

    const third = await options();
    const proved = await api()
      .post("/api/auth/reauth/passkey")
      .set("Authorization", user.bearer)
      .send({ challenge: third.challenge, response: authenticator.authenticate(third.options) });
    expect(proved.status).toBe(200);
    expect(proved.body.until).toBe(new Date(ctx.clock.now().getTime() + 10 * 60_000).toISOString());
    const row = await sessionOf(ctx, user.id);
    expect(row?.reauthAt?.toISOString()).toBe(ctx.clock.now().toISOString());
    expect(row?.secondFactorAt?.toISOString()).toBe(ctx.clock.now().toISOString());
    expect((await remove()).status).toBe(204);
  });

  it("answers 400 to the password alone where the account's only second factor is a passkey, and proves nothing", async () => {
    const user = await ctx.signUp();
    const { passkey } = await passkeys.withPasskey(user, "Phone");
    ctx.clock.advance(11 * 60_000);
    const before = await sessionOf(ctx, user.id);

    const message = "Your account's second factor is a passkey: confirm it's you with your passkey instead.";
    for (const body of [{ password: user.password }, { password: user.password, code: "000000" }]) {
      const refused = await reauth(user, body);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message, errors: [{ path: "password", message }] });
    }
    const after = await sessionOf(ctx, user.id);
    expect(after?.reauthAt).toEqual(before?.reauthAt);
    expect(after?.secondFactorAt).toEqual(before?.secondFactorAt);
    expectReauthRequired(await api().delete(`/api/auth/passkeys/${passkey.id}`).set("Authorization", user.bearer));
  });
});
