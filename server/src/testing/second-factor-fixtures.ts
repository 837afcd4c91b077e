import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import request from "supertest";
import { reauthRequiredCode } from "../../../shared/api-error";
import type { AuthResponse } from "../../../shared/auth";
import type { LoginAnswer, RecoveryCodes, SecondFactorChallenge, TotpSetup } from "../../../shared/second-factor";
import { sessions, totpFactors } from "../db/schema";
import type { SignedUp, TestContext } from "./test-context";

// Second factors through the API, as a user's authenticator app would answer: set one up, sign in in two steps.

/** What the fixtures use of a test context; each secret they handle is noted, so the file's log is checked for it. */
type Context = Pick<TestContext, "app" | "db" | "clock" | "noteSecret">;

/** The code an authenticator app shows for the secret at a time (the test clock's now by default), `steps` steps later. */
export function totpCode(secret: string, at: Date, steps = 0): string {
  const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: at.getTime() + steps * 30_000 });
}

/** The step of a time, as the server counts it. */
export const stepAt = (at: Date) => Math.floor(at.getTime() / 30_000);

/**
 * A code the server accepts now: of the current step, the one before or the one after, the earliest not yet used.
 * When all three were used, the clock moves on one step (30 s) first.
 */
export async function nextTotpCode(ctx: Context, userId: number, secret: string): Promise<string> {
  const [row] = await ctx.db.select({ lastUsedStep: totpFactors.lastUsedStep }).from(totpFactors).where(eq(totpFactors.userId, userId));
  const last = row?.lastUsedStep ?? -Infinity;
  for (const steps of [-1, 0, 1]) {
    if (stepAt(ctx.clock.now()) + steps > last) {
      const code = totpCode(secret, ctx.clock.now(), steps);
      ctx.noteSecret(code);
      return code;
    }
  }
  ctx.clock.advance(30_000);
  return nextTotpCode(ctx, userId, secret);
}

export interface WithTotp {
  secret: string;
  recoveryCodes: string[];
}

/**
 * Proves the session afresh (`POST /api/auth/reauth`) with the password, and a code from the app when `secret` is
 * given: what a security change needs first.
 */
export async function reauthenticate(
  ctx: Context,
  user: { id: number; bearer: string; password: string },
  secret?: string,
): Promise<{ until: string }> {
  const body = secret ? { password: user.password, code: await nextTotpCode(ctx, user.id, secret) } : { password: user.password };
  const response = await request(ctx.app).post("/api/auth/reauth").set("Authorization", user.bearer).send(body);
  if (response.status !== 200) throw new Error(`re-authentication failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { until: string };
}

/** The refusal of a security change whose session has not proved its holder afresh: 401 with the reauth_required code. */
export function expectReauthRequired(response: request.Response): void {
  expect(response.status).toBe(401);
  expect(response.body).toEqual({ message: expect.any(String), code: reauthRequiredCode });
}

/** The user's first session as stored. */
export const sessionOf = async (ctx: Context, userId: number) =>
  (await ctx.db.select().from(sessions).where(eq(sessions.userId, userId)))[0];

/**
 * Marks every session of the user freshly proved, as re-authentication does (proved over HTTP in reauth.test.ts): for
 * tests about something else whose account has a passkey, which the password alone no longer proves.
 */
export async function markSessionsProved(ctx: Context, userId: number): Promise<void> {
  await ctx.db.update(sessions).set({ reauthAt: ctx.clock.now() }).where(eq(sessions.userId, userId));
}

/**
 * Sets up and confirms an authenticator app for the signed-in user through the API, proving the session with the
 * password first; that session then counts as having passed the factor.
 */
export async function enableTotp(ctx: Context, user: { id: number; bearer: string; password: string }): Promise<WithTotp> {
  await reauthenticate(ctx, user);
  const setup = await request(ctx.app).post("/api/auth/totp/setup").set("Authorization", user.bearer);
  if (setup.status !== 200) throw new Error(`set-up failed: ${setup.status} ${JSON.stringify(setup.body)}`);
  const { secret } = setup.body as TotpSetup;
  ctx.noteSecret(secret);
  const confirm = await request(ctx.app)
    .post("/api/auth/totp/confirm")
    .set("Authorization", user.bearer)
    .send({ code: await nextTotpCode(ctx, user.id, secret) });
  if (confirm.status !== 200) throw new Error(`confirmation failed: ${confirm.status} ${JSON.stringify(confirm.body)}`);
  const { recoveryCodes } = confirm.body as RecoveryCodes;
  ctx.noteSecret(...recoveryCodes);
  return { secret, recoveryCodes };
}

/** The first step of a sign-in of a user with a second factor: the challenge. */
export async function startSignIn(ctx: Context, user: { username: string; password: string }): Promise<SecondFactorChallenge> {
  const response = await request(ctx.app).post("/api/auth/login").send({ username: user.username, password: user.password });
  const answer = response.body as LoginAnswer;
  if (response.status !== 200 || !("secondFactorRequired" in answer)) {
    throw new Error(`expected a second-factor challenge: ${response.status} ${JSON.stringify(response.body)}`);
  }
  ctx.noteSecret(answer.challenge);
  return answer;
}

/** Signs in in two steps with a code from the app: a session that passed a second factor, with its bearer header. */
export async function signInWithTotp(
  ctx: Context,
  user: { id: number; username: string; password: string },
  secret: string,
): Promise<AuthResponse & { bearer: string }> {
  const { challenge } = await startSignIn(ctx, user);
  const response = await request(ctx.app)
    .post("/api/auth/login/second-factor")
    .send({ challenge, code: await nextTotpCode(ctx, user.id, secret) });
  if (response.status !== 200) throw new Error(`second step failed: ${response.status} ${JSON.stringify(response.body)}`);
  const signedIn = response.body as AuthResponse;
  ctx.noteSecret(signedIn.token);
  return { ...signedIn, bearer: `Bearer ${signedIn.token}` };
}

/** Gives a signed-up user an authenticator app and a session that passed it: what changing service keys needs. */
export async function withSecondFactorSession(ctx: Context, user: SignedUp): Promise<SignedUp & WithTotp> {
  const factor = await enableTotp(ctx, user);
  const session = await signInWithTotp(ctx, user, factor.secret);
  return { ...user, ...session, password: user.password, ...factor };
}
