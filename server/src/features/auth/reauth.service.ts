import { and, eq, isNotNull } from "drizzle-orm";
import { reauthLifetimeMs, type ReauthAnswer, type ReauthInput } from "../../../../shared/identity";
import type { PasskeyLoginInput, PasskeyOptions } from "../../../../shared/second-factor";
import type { ServiceDeps } from "../../app-deps";
import type { Clock } from "../../clock";
import type { Queryable } from "../../db/client";
import { passkeys, sessions, totpFactors } from "../../db/schema";
import { HttpError, badRequest, conflict } from "../../http/errors";
import { verifyPassword } from "../../crypto/passwords";
import type { AuthContext } from "../../http/request-context";
import { attemptKeyOf, forgetAttempt, recordAttemptWithinLimit } from "./auth.service";
import { advancePasskeyCounter, verifyPasskeyAnswer } from "./passkey-login.service";
import { relyingParty, webAuthn } from "./passkeys.service";
import { WrongCode, assertSecondStepOpen, issueChallenge, recordSecondFactorFailure, takeChallenge } from "./second-factor-state";
import { spendSecondStepCode } from "./second-step-codes";

// Re-authentication: the holder of a session proves again that they are who signed in, so that for the next 10
// minutes it may make security changes. A sign-in alone never counts: a stolen session token cannot make itself
// permanent by adding a factor or changing the password.

type ReauthDeps = ServiceDeps<"db" | "clock" | "appSecret" | "mail">;
type Caller = Pick<AuthContext, "user" | "sessionId">;

const wrongProofMessage = "The password or the code is wrong";
const codeNeededMessage = "Enter a code from your authenticator app as well";
const passkeyFailedMessage = "The passkey could not confirm it's you. Please try again.";
const passkeyNeededMessage = "Your account's second factor is a passkey: confirm it's you with your passkey instead.";

/** Marks the session proven from now; `secondFactor`: a factor was checked too, which the session then counts as passed. */
async function markProven(tx: Queryable, clock: Clock, sessionId: number, secondFactor: boolean): Promise<ReauthAnswer> {
  const now = clock.now();
  await tx
    .update(sessions)
    .set(secondFactor ? { reauthAt: now, secondFactorAt: now } : { reauthAt: now })
    .where(eq(sessions.id, sessionId));
  return { until: new Date(now.getTime() + reauthLifetimeMs).toISOString() };
}

async function hasPasskey(db: Queryable, userId: number): Promise<boolean> {
  const [row] = await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1);
  return row !== undefined;
}

/**
 * `POST /api/auth/reauth`: the password, and a current code from the app where the account has one (a recovery code
 * also serves). Wrong passwords and codes count with the sign-in limit of the account and the address, and wrong
 * codes towards the lock of the account's second step, as at sign-in; a code is accepted once. An account whose
 * only second factor is a passkey is answered 400: it confirms with the passkey (`POST /api/auth/reauth/passkey`).
 */
export async function reauthenticate(deps: ReauthDeps, caller: Caller, input: ReauthInput, ip: string): Promise<ReauthAnswer> {
  const { db, clock } = deps;
  const { user } = caller;
  const [app] = await db
    .select({ userId: totpFactors.userId })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, user.id), isNotNull(totpFactors.confirmedAt)));
  if (!app && (await hasPasskey(db, user.id))) {
    // The password alone would stand for both factors: only the passkey can prove the second one.
    throw new HttpError(400, passkeyNeededMessage, {}, [{ path: "password", message: passkeyNeededMessage }]);
  }
  const attemptId = await recordAttemptWithinLimit(db, clock, attemptKeyOf(user), ip);
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    throw new HttpError(400, wrongProofMessage, {}, [{ path: "password", message: wrongProofMessage }]);
  }
  const code = input.code?.trim() ?? "";
  if (app && code === "") throw new HttpError(400, codeNeededMessage, {}, [{ path: "code", message: codeNeededMessage }]);
  if (app) assertSecondStepOpen(clock, user);
  let answer: ReauthAnswer;
  try {
    answer = await db.transaction(async (tx) => {
      if (app && !(await spendSecondStepCode(tx, deps, user.id, code))) throw new WrongCode();
      return markProven(tx, clock, caller.sessionId, app !== undefined);
    });
  } catch (error) {
    if (!(error instanceof WrongCode)) throw error;
    await recordSecondFactorFailure(db, clock, user.id);
    throw new HttpError(400, wrongProofMessage, {}, [{ path: "code", message: wrongProofMessage }]);
  }
  await forgetAttempt(db, attemptId);
  return answer;
}

/** `POST /api/auth/reauth/passkey-options`: a challenge any passkey of the caller's may answer, verifying its user. */
export async function reauthPasskeyOptions(deps: ReauthDeps, caller: Caller): Promise<PasskeyOptions> {
  const { db, clock } = deps;
  const owned = await db
    .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, caller.user.id));
  if (owned.length === 0) throw conflict("You have no passkey: confirm it's you with your password instead.");
  const { generateAuthenticationOptions } = await webAuthn();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps).rpID,
    // It stands for the password and the second factor at once, so it must verify its user (a PIN, a fingerprint).
    userVerification: "required",
    allowCredentials: owned.map((row) => ({ id: row.credentialId, transports: row.transports ?? undefined })),
  });
  const challenge = await issueChallenge(db, clock, {
    purpose: "reauth-passkey",
    userId: caller.user.id,
    webauthnChallenge: options.challenge,
  });
  return { challenge, options: options as unknown as Record<string, unknown> };
}

/**
 * `POST /api/auth/reauth/passkey`: a passkey of the caller's answers their open challenge (spent at the first
 * answer, right or wrong), with its user verified. A failure counts with the sign-in limit.
 */
export async function reauthWithPasskey(deps: ReauthDeps, caller: Caller, input: PasskeyLoginInput, ip: string): Promise<ReauthAnswer> {
  const { db, clock } = deps;
  const { user } = caller;
  const attemptId = await recordAttemptWithinLimit(db, clock, attemptKeyOf(user), ip);
  const challenge = await takeChallenge(db, clock, input.challenge, "reauth-passkey");
  const [passkey] =
    challenge?.userId === user.id && challenge.webauthnChallenge
      ? await db
          .select()
          .from(passkeys)
          .where(and(eq(passkeys.credentialId, input.response.id), eq(passkeys.userId, user.id)))
      : [];
  if (!challenge?.webauthnChallenge || !passkey) throw badRequest(passkeyFailedMessage);
  const newCounter = await verifyPasskeyAnswer(deps, challenge.webauthnChallenge, passkey, input.response, true, () =>
    badRequest(passkeyFailedMessage),
  );
  const answer = await db.transaction(async (tx) => {
    if (!(await advancePasskeyCounter(tx, clock, passkey, newCounter))) throw badRequest(passkeyFailedMessage);
    return markProven(tx, clock, caller.sessionId, true);
  });
  await forgetAttempt(db, attemptId);
  return answer;
}
