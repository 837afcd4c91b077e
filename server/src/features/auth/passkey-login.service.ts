import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { and, eq } from "drizzle-orm";
import type { PasskeyLoginInput, PasskeyOptions } from "../../../../shared/second-factor";
import type { Clock } from "../../clock";
import type { Queryable } from "../../db/client";
import { authChallenges, passkeys, users } from "../../db/schema";
import { HttpError, unauthorized } from "../../http/errors";
import { ipLimitKey } from "../../http/ip-limit-key";
import { createSession } from "../../http/session";
import { limitOf } from "../../limits";
import { activeRoleOf, attemptKeyOf, forgetAttempt, recordAttemptWithinLimit, type SignedIn } from "./auth.service";
import { relyingParty, webAuthn, type PasskeyDeps } from "./passkeys.service";
import {
  assertSecondStepOpen,
  clearSecondFactorLock,
  issueChallenge,
  peekChallenge,
  recordSecondFactorFailure,
  takeChallenge,
} from "./second-factor-state";

// Signing in with a passkey, alone or as the second step of a password sign-in, and checking a passkey's answer
// (for a sign-in, or a fresh proof of identity).

const signInFailed = "The passkey could not sign you in. Please try again.";
const signInExpired = "The sign-in has expired. Please sign in again.";
/** Failed passkey sign-ins that name no account count per address, as that address's unknown passkeys. */
const unknownPasskeyAttemptKey = (ip: string) => `unknown passkey from ${ipLimitKey(ip)}`;

type PasskeyRow = typeof passkeys.$inferSelect;

/**
 * Checks a passkey's answer to a WebAuthn challenge against the stored credential; answers its new signature
 * counter, or throws `failure()` for any answer that does not verify.
 */
export async function verifyPasskeyAnswer(
  deps: Pick<PasskeyDeps, "mail">,
  expectedChallenge: string,
  passkey: PasskeyRow,
  response: PasskeyLoginInput["response"],
  requireUserVerification: boolean,
  failure: () => HttpError,
): Promise<number> {
  const { rpID, origin } = relyingParty(deps);
  try {
    const { verifyAuthenticationResponse } = await webAuthn();
    const verification = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.counter },
      requireUserVerification,
    });
    if (!verification.verified) throw failure();
    return verification.authenticationInfo.newCounter;
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw failure();
  }
}

/**
 * Moves a passkey's counter on from the value that was checked, and notes its use: of two answers racing with one
 * counter, one wins. Answers whether this one did.
 */
export async function advancePasskeyCounter(tx: Queryable, clock: Clock, passkey: PasskeyRow, newCounter: number): Promise<boolean> {
  const [used] = await tx
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: clock.now() })
    .where(and(eq(passkeys.id, passkey.id), eq(passkeys.counter, passkey.counter)))
    .returning({ id: passkeys.id });
  return used !== undefined;
}

/**
 * The browser's options to sign in with a passkey. Without a sign-in in progress: any passkey of this site the
 * browser holds (a discoverable credential, which names its user), and it must verify its user, as it stands for
 * both factors. With one (the password was right and a second factor is due): that user's passkeys only.
 */
export async function passkeyLoginOptions(deps: PasskeyDeps, signInChallenge: string | undefined, ip: string): Promise<PasskeyOptions> {
  const { db, clock } = deps;
  // Anyone may ask, and each answer stores a challenge: the asks of one address count against its sign-in limit
  // (100 a minute, with its failed sign-ins), so nobody can fill the table.
  await recordAttemptWithinLimit(db, clock, null, ip);
  const { rpID } = relyingParty(deps);
  if (signInChallenge === undefined) {
    const { generateAuthenticationOptions } = await webAuthn();
    const options = await generateAuthenticationOptions({ rpID, userVerification: "required" });
    const challenge = await issueChallenge(db, clock, { purpose: "passkey-login", userId: null, webauthnChallenge: options.challenge });
    return { challenge, options: options as unknown as Record<string, unknown> };
  }
  const signIn = await peekChallenge(db, clock, signInChallenge, "second-factor");
  if (!signIn?.userId) throw unauthorized(signInExpired);
  const owned = await db
    .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, signIn.userId));
  if (owned.length === 0) throw unauthorized("This account has no passkey. Use your authenticator app or a recovery code.");
  const { generateAuthenticationOptions } = await webAuthn();
  const options = await generateAuthenticationOptions({
    rpID,
    userVerification: "preferred",
    allowCredentials: owned.map((row) => ({ id: row.credentialId, transports: row.transports ?? undefined })),
  });
  const challenge = await issueChallenge(db, clock, {
    purpose: "passkey-login",
    userId: signIn.userId,
    webauthnChallenge: options.challenge,
  });
  return { challenge, options: options as unknown as Record<string, unknown> };
}

/**
 * Signs in with a passkey's answer to a passkey-login challenge, which is spent first (one answer, one try). A
 * challenge issued for a sign-in in progress accepts only that user's passkeys, and success also spends every
 * sign-in of the user still waiting for its second step: so that sign-in cannot be completed a second time with a
 * code. (Its challenge token is not carried here; a passkey-login challenge of a user is only ever issued from a
 * live sign-in of theirs, and a passkey that verifies its user is a whole sign-in anyway.) Failures count against
 * the same per-account and per-address limits as wrong passwords.
 */
export async function loginWithPasskey(deps: PasskeyDeps, input: PasskeyLoginInput, ip: string, userAgent?: string): Promise<SignedIn> {
  const { db, clock } = deps;
  const challenge = await takeChallenge(db, clock, input.challenge, "passkey-login");
  const [passkey] =
    challenge && challenge.webauthnChallenge ? await db.select().from(passkeys).where(eq(passkeys.credentialId, input.response.id)) : [];
  const mayAnswer = passkey && (challenge?.userId == null || challenge.userId === passkey.userId);
  const [user] = mayAnswer ? await db.select().from(users).where(eq(users.id, passkey.userId)) : [];
  const attemptId = await recordAttemptWithinLimit(db, clock, user ? attemptKeyOf(user) : unknownPasskeyAttemptKey(ip), ip);
  if (!challenge?.webauthnChallenge || !passkey || !user) {
    // An answer by no passkey of the user whose sign-in it is fails that second step too.
    if (challenge?.userId != null) await recordSecondFactorFailure(db, clock, challenge.userId);
    throw unauthorized(challenge ? signInFailed : signInExpired);
  }

  // The second step of a sign-in: a locked account's is refused whatever the answer, and a failed one counts
  // towards its lock.
  const secondStep = challenge.userId != null;
  if (secondStep) assertSecondStepOpen(clock, user);
  let newCounter: number;
  try {
    // Alone, the passkey is both factors only if it verified its user (a PIN, a fingerprint).
    newCounter = await verifyPasskeyAnswer(deps, challenge.webauthnChallenge, passkey, input.response, !secondStep, () =>
      unauthorized(signInFailed),
    );
  } catch (error) {
    if (secondStep) await recordSecondFactorFailure(db, clock, user.id);
    throw error;
  }

  const token = await db.transaction(async (tx) => {
    if (!(await advancePasskeyCounter(tx, clock, passkey, newCounter))) throw unauthorized(signInFailed);
    if (secondStep) {
      await tx.delete(authChallenges).where(and(eq(authChallenges.purpose, "second-factor"), eq(authChallenges.userId, user.id)));
      await clearSecondFactorLock(tx, user.id);
    }
    return createSession(tx, clock, user.id, userAgent, { secondFactor: true, maxPerUser: limitOf(deps, "sessionsPerUser") });
  });
  await forgetAttempt(db, attemptId);
  return { user, activeRole: await activeRoleOf(db, user), token };
}
