import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import request from "supertest";
import { recoveryCodePattern, type TotpSetup } from "../../../../shared/second-factor";
import { auditEvents, recoveryCodes, secondFactorFailures, totpFactors, users } from "../../db/schema";
import { decryptSecret } from "../../integrations/secrets";
import { enableTotp, nextTotpCode, reauthenticate, totpCode } from "../../testing/second-factor-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();
const api = () => request(ctx.app);

/** Starts a set-up from a freshly proved session, as the client does once the password was asked for. */
async function setUp(user: SignedUp): Promise<TotpSetup> {
  await reauthenticate(ctx, user);
  const response = await api().post("/api/auth/totp/setup").set("Authorization", user.bearer);
  expect(response.status).toBe(200);
  ctx.noteSecret(response.body.secret);
  return response.body as TotpSetup;
}

const flagOf = async (userId: number) =>
  (await ctx.db.select({ flag: users.secondFactor }).from(users).where(eq(users.id, userId)))[0]?.flag;

describe("setting up an authenticator app", () => {
  it("answers a fresh secret as text, an otpauth URL and an SVG QR code, and stores the secret encrypted and unconfirmed", async () => {
    const user = await ctx.signUp({ username: "appsetup" });
    const setup = await setUp(user);
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/); // 20 bytes in base32
    const url = new URL(setup.otpauthUrl);
    expect(url.protocol).toBe("otpauth:");
    expect(url.host).toBe("totp");
    expect(decodeURIComponent(url.pathname)).toBe("/Quorum:appsetup");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      secret: setup.secret,
      issuer: "Quorum",
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
    expect(setup.qrSvg).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);

    const [row] = await ctx.db.select().from(totpFactors).where(eq(totpFactors.userId, user.id));
    expect(row?.confirmedAt).toBeNull();
    expect(row?.secretEncrypted).not.toContain(setup.secret);
    expect(decryptSecret(row!.secretEncrypted, ctx.deps.appSecret)).toBe(setup.secret);
    // Not on until confirmed: sign-in is still one step.
    expect(await flagOf(user.id)).toBe(false);

    // A new set-up replaces one not yet confirmed.
    const again = await setUp(user);
    expect(again.secret).not.toBe(setup.secret);
    const [replaced] = await ctx.db.select().from(totpFactors).where(eq(totpFactors.userId, user.id));
    expect(decryptSecret(replaced!.secretEncrypted, ctx.deps.appSecret)).toBe(again.secret);
  });

  it("confirms with a first code: 10 recovery codes shown once and stored hashed, the flag on, an audit event without secrets", async () => {
    const user = await ctx.signUp();
    const setup = await setUp(user);
    const wrong = await api().post("/api/auth/totp/confirm").set("Authorization", user.bearer).send({ code: "000000" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/does not match/);
    expect(await flagOf(user.id)).toBe(false);

    const code = await nextTotpCode(ctx, user.id, setup.secret);
    const confirmed = await api().post("/api/auth/totp/confirm").set("Authorization", user.bearer).send({ code });
    expect(confirmed.status).toBe(200);
    const codes: string[] = confirmed.body.recoveryCodes;
    ctx.noteSecret(...codes);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const recovery of codes) expect(recovery).toMatch(recoveryCodePattern);
    expect(await flagOf(user.id)).toBe(true);

    const stored = await ctx.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const row of stored) {
      expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(codes).not.toContain(row.codeHash);
    }
    // Keyed with the app's secret: the plain SHA-256 of a code, which a copy of the table could be searched with, is not stored.
    const plainDigests = codes.map((recovery) => createHash("sha256").update(recovery).digest("hex"));
    expect(stored.map((row) => row.codeHash).filter((hash) => plainDigests.includes(hash))).toEqual([]);
    const [factor] = await ctx.db.select().from(totpFactors).where(eq(totpFactors.userId, user.id));
    expect(factor?.confirmedAt?.toISOString()).toBe(ctx.clock.now().toISOString());
    expect(factor?.lastUsedStep).not.toBeNull();

    const [event] = await ctx.db.select().from(auditEvents).where(eq(auditEvents.action, "second_factor.totp_enabled"));
    expect(event).toMatchObject({ actorId: user.id, companyId: null, chainKey: 0, targetType: "user", targetId: String(user.id) });
    const recorded = JSON.stringify(event);
    for (const secret of [setup.secret, code, ...codes]) expect(recorded).not.toContain(secret);

    // Once on, a new set-up or a second confirmation is refused.
    expect((await api().post("/api/auth/totp/setup").set("Authorization", user.bearer)).status).toBe(409);
    const twice = await api()
      .post("/api/auth/totp/confirm")
      .set("Authorization", user.bearer)
      .send({ code: await nextTotpCode(ctx, user.id, setup.secret) });
    expect(twice.status).toBe(409);
  });

  it("refuses a confirmation with no set-up in progress (409) and a code that is not six digits (400)", async () => {
    const user = await ctx.signUp();
    await reauthenticate(ctx, user);
    expect((await api().post("/api/auth/totp/confirm").set("Authorization", user.bearer).send({ code: "123456" })).status).toBe(409);
    await setUp(user);
    for (const code of ["12345", "1234567", "abcdef", "", 123456, null]) {
      const response = await api().post("/api/auth/totp/confirm").set("Authorization", user.bearer).send({ code });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe("Enter the 6-digit code from your app");
    }
  });

  it("counts wrong confirmation codes against the sign-in limit: the 11th in a minute is 429", async () => {
    const user = await ctx.signUp();
    const setup = await setUp(user);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      statuses.push((await api().post("/api/auth/totp/confirm").set("Authorization", user.bearer).send({ code: "000000" })).status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
    // A right code too, until the minute has passed.
    const right = await api()
      .post("/api/auth/totp/confirm")
      .set("Authorization", user.bearer)
      .send({ code: await nextTotpCode(ctx, user.id, setup.secret) });
    expect(right.status).toBe(429);
    ctx.clock.advance(61_000);
    const later = await api()
      .post("/api/auth/totp/confirm")
      .set("Authorization", user.bearer)
      .send({ code: await nextTotpCode(ctx, user.id, setup.secret) });
    expect(later.status).toBe(200);
    ctx.noteSecret(...later.body.recoveryCodes);
  });

  it("says whether the app is on: not while a set-up awaits its first code, yes once confirmed", async () => {
    const user = await ctx.signUp();
    const status = async () => (await api().get("/api/auth/totp").set("Authorization", user.bearer)).body;
    expect(await status()).toEqual({ enabled: false });
    await setUp(user);
    expect(await status()).toEqual({ enabled: false });
    await enableTotp(ctx, user);
    expect(await status()).toEqual({ enabled: true });
    // Another user's app says nothing of the caller's.
    const other = await ctx.signUp();
    expect((await api().get("/api/auth/totp").set("Authorization", other.bearer)).body).toEqual({ enabled: false });
  });

  it("needs a session", async () => {
    expect((await api().get("/api/auth/totp")).status).toBe(401);
    expect((await api().post("/api/auth/totp/setup")).status).toBe(401);
    expect((await api().post("/api/auth/totp/confirm").send({ code: "123456" })).status).toBe(401);
    expect((await api().delete("/api/auth/totp").send({ password: "x", code: "123456" })).status).toBe(401);
  });
});

describe("turning the authenticator app off", () => {
  it("needs the password and a current code not used before; removes the factor and its recovery codes", async () => {
    const user = await ctx.signUp();
    const { secret } = await enableTotp(ctx, user);
    const off = (body: object) => api().delete("/api/auth/totp").set("Authorization", user.bearer).send(body);

    const wrongPassword = await off({ password: "not the password", code: await nextTotpCode(ctx, user.id, secret) });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.message).toBe("The password or the code is wrong");
    expect((await off({ password: user.password, code: "000000" })).status).toBe(400);
    // The code that confirmed the app was accepted once already: a replay is refused.
    const [factor] = await ctx.db.select().from(totpFactors).where(eq(totpFactors.userId, user.id));
    const usedCode = totpCode(secret, new Date(factor!.lastUsedStep! * 30_000));
    expect((await off({ password: user.password, code: usedCode })).status).toBe(400);
    expect((await off({ password: user.password })).status).toBe(400);
    expect(await flagOf(user.id)).toBe(true);

    const done = await off({ password: user.password, code: await nextTotpCode(ctx, user.id, secret) });
    expect(done.status).toBe(204);
    expect(await flagOf(user.id)).toBe(false);
    expect(await ctx.db.select().from(totpFactors).where(eq(totpFactors.userId, user.id))).toEqual([]);
    expect(await ctx.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([]);
    const [event] = await ctx.db.select().from(auditEvents).where(eq(auditEvents.action, "second_factor.totp_disabled"));
    expect(event).toMatchObject({ actorId: user.id, companyId: null, targetId: String(user.id) });

    // Off, it answers 404; and a new set-up may start.
    expect((await off({ password: user.password, code: "123456" })).status).toBe(404);
    await setUp(user);
  });

  it("counts wrong passwords and codes against the sign-in limit", async () => {
    const user = await ctx.signUp();
    const { secret } = await enableTotp(ctx, user);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      const response = await api().delete("/api/auth/totp").set("Authorization", user.bearer).send({ password: "wrong", code: "000000" });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
    // The limit is the sign-in's: the account's password sign-in is held up too.
    expect((await api().post("/api/auth/login").send({ username: user.username, password: user.password })).status).toBe(429);
    ctx.clock.advance(61_000);
    const done = await api()
      .delete("/api/auth/totp")
      .set("Authorization", user.bearer)
      .send({ password: user.password, code: await nextTotpCode(ctx, user.id, secret) });
    expect(done.status).toBe(204);
  });

  it("counts wrong codes towards the lock of the account's second step: the tenth locks it, and then even the right code is refused (429)", async () => {
    const user = await ctx.signUp();
    const { secret } = await enableTotp(ctx, user);
    const off = (code: string) => api().delete("/api/auth/totp").set("Authorization", user.bearer).send({ password: user.password, code });
    for (let attempt = 0; attempt < 10; attempt++) {
      const wrong = await off("000000");
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe("The password or the code is wrong");
    }
    expect(await ctx.db.select().from(secondFactorFailures).where(eq(secondFactorFailures.userId, user.id))).toHaveLength(10);
    const [locked] = await ctx.db.select({ until: users.secondFactorLockedUntil }).from(users).where(eq(users.id, user.id));
    expect(locked?.until?.toISOString()).toBe(new Date(ctx.clock.now().getTime() + 15 * 60_000).toISOString());

    // Past the sign-in limit's minute, the lock still holds.
    ctx.clock.advance(61_000);
    const refused = await off(await nextTotpCode(ctx, user.id, secret));
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe(String(14 * 60 - 1));
    expect(await flagOf(user.id)).toBe(true);
    const [event] = await ctx.db.select().from(auditEvents).where(eq(auditEvents.action, "second_factor.locked"));
    expect(event).toMatchObject({ targetId: String(user.id) });

    ctx.clock.advance(14 * 60_000);
    expect((await off(await nextTotpCode(ctx, user.id, secret))).status).toBe(204);
  });
});
