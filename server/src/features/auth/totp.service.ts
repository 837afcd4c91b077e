import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { Secret } from "otpauth";
import {
  type RecoveryCodes,
  type SecondFactorLoginInput,
  type TotpDisableInput,
  type TotpSetup,
  type TotpStatus,
} from "../../../../shared/second-factor";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import { recoveryCodes, totpFactors, users } from "../../db/schema";
import { HttpError, conflict, notFound, unauthorized } from "../../http/errors";
import { verifyPassword } from "../../crypto/passwords";
import { limitOf } from "../../limits";
import type { UserRow } from "../../http/request-context";
import { encryptSecret } from "../../integrations/secrets";
import { attemptKeyOf, forgetAttempt, recordAttemptWithinLimit, signedIn, type SignedIn } from "./auth.service";
import {
  WrongCode,
  assertSecondStepOpen,
  clearSecondFactorLock,
  peekChallenge,
  recordSecondFactorFailure,
  refreshSecondFactorFlag,
  takeChallenge,
  takeChallengeTry,
  passedSecondFactor,
  type FactorCaller,
} from "./second-factor-state";
import { tellAccountHolder } from "../notifications/outbox.service";
import { factorOf, newRecoveryCode, recoveryCodeHash, spendSecondStepCode, spendTotpCode, stepOfCode, totpOf } from "./second-step-codes";

// The authenticator app: turning it on (with its one-time recovery codes) and off, and completing a sign-in with
// its code or a recovery code. The codes themselves are checked and spent in second-step-codes.ts.

type TotpDeps = ServiceDeps<"db" | "clock" | "appSecret" | "limits">;

const recoveryCodeCount = 10;
const wrongCodeMessage = "That code does not match. Check that the time on your device is right, and enter the current code.";

/** `GET /api/auth/totp`: whether the user's app is on; a set-up not yet confirmed is not. */
export async function totpStatus({ db }: ServiceDeps<"db">, userId: number): Promise<TotpStatus> {
  const [row] = await db
    .select({ userId: totpFactors.userId })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt)));
  return { enabled: row !== undefined };
}

/** `POST /api/auth/totp/setup`: a new secret (replacing a set-up not yet confirmed), as text, URL and QR code. */
export async function setupTotp({ db, clock, appSecret }: TotpDeps, user: UserRow): Promise<TotpSetup> {
  const secret = new Secret({ size: 20 }).base32;
  const secretEncrypted = encryptSecret(secret, appSecret);
  // A confirmed app is never replaced: the conditional update leaves it, and nothing comes back.
  const [row] = await db
    .insert(totpFactors)
    .values({ userId: user.id, secretEncrypted, createdAt: clock.now() })
    .onConflictDoUpdate({
      target: totpFactors.userId,
      set: { secretEncrypted, createdAt: clock.now(), lastUsedStep: null },
      setWhere: isNull(totpFactors.confirmedAt),
    })
    .returning({ userId: totpFactors.userId });
  if (!row) throw conflict("An authenticator app is already on: turn it off first");
  const otpauthUrl = totpOf(secret, user.username).toString();
  // Loaded when an authenticator app is first set up, not at start-up.
  const { default: QRCode } = await import("qrcode");
  const qrSvg = await QRCode.toString(otpauthUrl, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { secret, otpauthUrl, qrSvg };
}

/**
 * `POST /api/auth/totp/confirm`: a first code turns the app on; answers 10 recovery codes, shown this once. A wrong
 * code counts against the sign-in limits, like a wrong password. The session that confirms it (one freshly proved)
 * has just passed the factor.
 */
export async function confirmTotp(deps: TotpDeps, caller: FactorCaller, code: string, ip: string): Promise<RecoveryCodes> {
  const { db, clock, appSecret } = deps;
  const { user } = caller;
  const factor = await factorOf(db, appSecret, user.id);
  if (!factor || factor.confirmedAt) throw conflict("No set-up of an authenticator app is in progress: start it again");
  const attemptId = await recordAttemptWithinLimit(db, clock, attemptKeyOf(user), ip);
  const step = stepOfCode(factor.secret, code, clock);
  if (step === null) throw new HttpError(400, wrongCodeMessage, {}, [{ path: "code", message: wrongCodeMessage }]);
  const codes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
  await db.transaction(async (tx) => {
    const [confirmed] = await tx
      .update(totpFactors)
      .set({ confirmedAt: clock.now(), lastUsedStep: step })
      // The very secret the code was checked against: a set-up started again meanwhile is not confirmed by it.
      .where(and(eq(totpFactors.userId, user.id), isNull(totpFactors.confirmedAt), eq(totpFactors.secretEncrypted, factor.secretEncrypted)))
      .returning({ userId: totpFactors.userId });
    if (!confirmed) throw conflict("No set-up of an authenticator app is in progress: start it again");
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    await tx
      .insert(recoveryCodes)
      .values(codes.map((recovery) => ({ userId: user.id, codeHash: recoveryCodeHash(recovery, appSecret), createdAt: clock.now() })));
    await refreshSecondFactorFlag(tx, user.id);
    await passedSecondFactor(tx, clock, caller.sessionId);
    await recordAudit(tx, clock, {
      actorId: user.id,
      companyId: null,
      action: "second_factor.totp_enabled",
      targetType: "user",
      targetId: user.id,
    });
    await tellAccountHolder(tx, clock, user, "An authenticator app was set up for two-factor sign-in to your account.");
  });
  await forgetAttempt(db, attemptId);
  return { recoveryCodes: codes };
}

/**
 * `DELETE /api/auth/totp`: turns the app off with the password and a current code (one not used before); its
 * recovery codes go with it. A wrong password or code counts against the sign-in limits, and a wrong code towards
 * the lock of the account's second step, as at sign-in (429 while locked, even for a right code).
 */
export async function disableTotp(deps: TotpDeps, user: UserRow, input: TotpDisableInput, ip: string): Promise<void> {
  const { db, clock } = deps;
  const [factor] = await db
    .select({ userId: totpFactors.userId })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, user.id), isNotNull(totpFactors.confirmedAt)));
  if (!factor) throw notFound("No authenticator app is on");
  const attemptId = await recordAttemptWithinLimit(db, clock, attemptKeyOf(user), ip);
  const wrong = () => new HttpError(400, "The password or the code is wrong");
  if (!(await verifyPassword(user.passwordHash, input.password))) throw wrong();
  assertSecondStepOpen(clock, user);
  try {
    await db.transaction(async (tx) => {
      if (!(await spendTotpCode(tx, deps, user.id, input.code))) throw new WrongCode();
      await tx.delete(totpFactors).where(eq(totpFactors.userId, user.id));
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      await refreshSecondFactorFlag(tx, user.id);
      await recordAudit(tx, clock, {
        actorId: user.id,
        companyId: null,
        action: "second_factor.totp_disabled",
        targetType: "user",
        targetId: user.id,
      });
      await tellAccountHolder(tx, clock, user, "The authenticator app was turned off for your account; its recovery codes no longer work.");
    });
  } catch (error) {
    if (!(error instanceof WrongCode)) throw error;
    await recordSecondFactorFailure(db, clock, user.id);
    throw wrong();
  }
  await forgetAttempt(db, attemptId);
}

/** A sign-in whose challenge is gone: expired, unknown, or already completed. */
export const signInExpired = () => unauthorized("The sign-in has expired. Please sign in again.");

/**
 * `POST /api/auth/login/second-factor`: completes a sign-in whose password was right with a code from the app or a
 * recovery code. Each try is counted against the sign-in before its code is checked: after five wrong codes the
 * sign-in is gone (401, as expired), and each wrong code counts towards locking the account's second step (10 in
 * an hour; 429 while locked, even for a right code). A wrong code also counts against the limits of the account and
 * the address; a right one spends the challenge, clears the account's failures and lock, and opens a session that
 * passed a second factor.
 */
export async function loginWithSecondFactor(
  deps: TotpDeps,
  input: SecondFactorLoginInput,
  ip: string,
  userAgent?: string,
): Promise<SignedIn> {
  const { db, clock } = deps;
  const open = await peekChallenge(db, clock, input.challenge, "second-factor");
  if (open?.userId == null) throw signInExpired();
  const [user] = await db.select().from(users).where(eq(users.id, open.userId));
  if (!user) throw signInExpired();
  const attemptId = await recordAttemptWithinLimit(db, clock, attemptKeyOf(user), ip);
  assertSecondStepOpen(clock, user);
  const tried = await takeChallengeTry(db, clock, input.challenge, "second-factor");
  if (tried?.userId !== user.id) throw signInExpired();
  let completed: SignedIn | null;
  try {
    completed = await db.transaction(async (tx) => {
      // The challenge is taken first: a concurrent second step of the same sign-in waits on its row, then finds it
      // gone. A wrong code rolls the transaction back, and the sign-in stays open.
      const taken = await takeChallenge(tx, clock, input.challenge, "second-factor");
      if (taken?.userId !== user.id) return null;
      if (!(await spendSecondStepCode(tx, deps, user.id, input.code))) throw new WrongCode();
      // A lock set by a concurrent wrong code, after this try's check above, holds this one too.
      const [now] = await tx.select({ secondFactorLockedUntil: users.secondFactorLockedUntil }).from(users).where(eq(users.id, user.id));
      assertSecondStepOpen(clock, now ?? user);
      await clearSecondFactorLock(tx, user.id);
      return signedIn(tx, clock, user, userAgent, { secondFactor: true, maxPerUser: limitOf(deps, "sessionsPerUser") });
    });
  } catch (error) {
    if (!(error instanceof WrongCode)) throw error;
    await recordSecondFactorFailure(db, clock, user.id);
    throw unauthorized("Invalid code");
  }
  if (!completed) throw signInExpired();
  await forgetAttempt(db, attemptId);
  return completed;
}
