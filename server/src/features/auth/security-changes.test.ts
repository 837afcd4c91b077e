import { eq } from "drizzle-orm";
import { auditEvents, sessions } from "../../db/schema";
import { SoftwareAuthenticator } from "../../testing/software-authenticator";
import type { ReceivedMail } from "../../testing/smtp-capture";
import { useMailingContext } from "../../testing/test-smtp";
import { expectReauthRequired, nextTotpCode, reauthenticate, sessionOf } from "../../testing/second-factor-fixtures";

const { ctx, api, smtp, appUrl } = await useMailingContext();
// Each test starts a few minutes later: the failures one provokes do not count against the next's limits, and no
// proof of one is still fresh in the next.
beforeEach(() => ctx.clock.advance(11 * 60_000));

/** The security notices that arrived for the address since the last delivery. */
async function securityMails(to: string): Promise<ReceivedMail[]> {
  return (await smtp.deliver(ctx, to)).filter((mail) => mail.subject === "Security alert for your Quorum account");
}

describe("a security change without a fresh proof", () => {
  it("is refused (401 reauth_required) on every guarded route, allowed after re-authentication, mailed to the holder and audited", async () => {
    const user = await ctx.signUp();
    await smtp.deliver(ctx);
    const as = (method: "post" | "patch" | "delete", path: string, body?: object) =>
      api()[method](path).set("Authorization", user.bearer).send(body);

    // The authenticator app: set-up and confirmation.
    expectReauthRequired(await as("post", "/api/auth/totp/setup"));
    await reauthenticate(ctx, user);
    const setup = await as("post", "/api/auth/totp/setup");
    expect(setup.status).toBe(200);
    ctx.noteSecret(setup.body.secret);
    ctx.clock.advance(10 * 60_000);
    expectReauthRequired(await as("post", "/api/auth/totp/confirm", { code: await nextTotpCode(ctx, user.id, setup.body.secret) }));
    await reauthenticate(ctx, user);
    const confirmed = await as("post", "/api/auth/totp/confirm", { code: await nextTotpCode(ctx, user.id, setup.body.secret) });
    expect(confirmed.status).toBe(200);
    ctx.noteSecret(...confirmed.body.recoveryCodes);
    // Added in a freshly proved session, the app counts as this session's second factor.
    expect((await sessionOf(ctx, user.id))?.secondFactorAt?.toISOString()).toBe(ctx.clock.now().toISOString());
    const secret = setup.body.secret as string;
    const fresh = () => reauthenticate(ctx, user, secret);

    // Passkeys: the options, the registration, the removal.
    ctx.clock.advance(10 * 60_000);
    expectReauthRequired(await as("post", "/api/auth/passkeys/register-options"));
    await fresh();
    const options = await as("post", "/api/auth/passkeys/register-options");
    expect(options.status).toBe(200);
    const authenticator = new SoftwareAuthenticator({ origin: appUrl });
    const response = authenticator.register(options.body.options);
    ctx.clock.advance(4 * 60_000);
    await ctx.db
      .update(sessions)
      .set({ reauthAt: new Date(ctx.clock.now().getTime() - 10 * 60_000) })
      .where(eq(sessions.userId, user.id));
    expectReauthRequired(await as("post", "/api/auth/passkeys", { name: "Phone", response }));
    await fresh();
    const registered = await as("post", "/api/auth/passkeys", { name: "Phone", response });
    expect(registered.status).toBe(201);
    ctx.clock.advance(10 * 60_000);
    expectReauthRequired(await as("delete", `/api/auth/passkeys/${registered.body.id}`));
    await fresh();
    expect((await as("delete", `/api/auth/passkeys/${registered.body.id}`)).status).toBe(204);

    // The password.
    ctx.clock.advance(10 * 60_000);
    const newPassword = { currentPassword: user.password, newPassword: "another long secret", confirmPassword: "another long secret" };
    expectReauthRequired(await as("patch", `/api/users/${user.id}/password`, newPassword));
    await fresh();
    expect((await as("patch", `/api/users/${user.id}/password`, newPassword)).status).toBe(200);

    // Turning the app off carries both proofs in its body: no re-authentication first.
    ctx.clock.advance(10 * 60_000);
    const off = await as("delete", "/api/auth/totp", { password: "another long secret", code: await nextTotpCode(ctx, user.id, secret) });
    expect(off.status).toBe(204);

    const events = (await securityMails(user.email)).map((mail) => mail.text);
    expect(events).toEqual([
      expect.stringContaining("An authenticator app was set up for two-factor sign-in to your account."),
      expect.stringContaining('A passkey ("Phone") was added to your account.'),
      expect.stringContaining('A passkey ("Phone") was removed from your account.'),
      expect.stringContaining("Your password was changed"),
      expect.stringContaining("The authenticator app was turned off"),
    ]);
    const audited = await ctx.db
      .select({ action: auditEvents.action, chainKey: auditEvents.chainKey })
      .from(auditEvents)
      .where(eq(auditEvents.actorId, user.id))
      .orderBy(auditEvents.id);
    expect(audited).toEqual([
      { action: "second_factor.totp_enabled", chainKey: 0 },
      { action: "second_factor.passkey_added", chainKey: 0 },
      { action: "second_factor.passkey_removed", chainKey: 0 },
      { action: "account.password_changed", chainKey: 0 },
      { action: "second_factor.totp_disabled", chainKey: 0 },
    ]);
  });

  it("takes the current password as the password change's proof where the account has no second factor", async () => {
    const user = await ctx.signUp();
    const change = (currentPassword: string) =>
      api()
        .patch(`/api/users/${user.id}/password`)
        .set("Authorization", user.bearer)
        .send({ currentPassword, newPassword: "a third long secret", confirmPassword: "a third long secret" });
    // No re-authentication first: the form's current password is the proof, and a wrong one proves nothing.
    expect((await change("not the password")).status).toBe(400);
    expect((await change(user.password)).status).toBe(200);
  });
});
