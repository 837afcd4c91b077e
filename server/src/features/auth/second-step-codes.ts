import { randomInt } from "node:crypto";
import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { totpCodePattern } from "../../../../shared/second-factor";
import type { ServiceDeps } from "../../app-deps";
import type { Clock } from "../../clock";
import type { Queryable } from "../../db/client";
import { recordAudit } from "../../db/audit";
import { recoveryCodes, totpFactors } from "../../db/schema";
import { decryptSecret, hmacFor } from "../../integrations/secrets";

// The codes of a second step: the authenticator app's (TOTP, RFC 6238: SHA-1, 6 digits, 30-second steps) and the
// one-time recovery codes. The app's secret is stored encrypted with APP_SECRET like service keys; recovery codes
// only as a keyed digest. A code is accepted once: the step of the last accepted code is kept, and a code of that
// step or an earlier one is refused, by a conditional UPDATE so that two concurrent uses of one code cannot both pass.

const issuer = "Quorum";
const periodSeconds = 30;
/** Codes of one step before and after the current one are accepted too (a clock a little off, a slow typist). */
const windowSteps = 1;
/** The letters and digits of a recovery code: none of 0, 1, i, l, o, which read alike. */
const recoveryAlphabet = "abcdefghjkmnpqrstuvwxyz23456789";

export function totpOf(secret: string, label: string): TOTP {
  return new TOTP({ issuer, label, algorithm: "SHA1", digits: 6, period: periodSeconds, secret: Secret.fromBase32(secret) });
}

/** The step a code belongs to at the clock's time (within the window), or null when it matches none. */
export function stepOfCode(secret: string, code: string, clock: Clock): number | null {
  const timestamp = clock.now().getTime();
  const delta = totpOf(secret, "").validate({ token: code, timestamp, window: windowSteps });
  return delta === null ? null : TOTP.counter({ period: periodSeconds, timestamp }) + delta;
}

/**
 * Only this digest of a recovery code is stored: keyed with APP_SECRET, so a copy of the table alone cannot be
 * searched for the codes (each has about 50 bits).
 */
export const recoveryCodeHash = (code: string, appSecret: string) =>
  hmacFor("recovery code", appSecret, code.trim().toLowerCase()).toString("hex");

export function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => recoveryAlphabet[randomInt(recoveryAlphabet.length)]);
  return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
}

/** The user's authenticator app, confirmed or not, with its secret decrypted; null when none. */
export async function factorOf(db: Queryable, appSecret: string, userId: number) {
  const [row] = await db.select().from(totpFactors).where(eq(totpFactors.userId, userId));
  return row ? { ...row, secret: decryptSecret(row.secretEncrypted, appSecret) } : null;
}

/**
 * Accepts a code of the user's confirmed app once: records its step as the last used, only if no code of that step
 * or a later one was accepted before. Answers whether the code counted.
 */
export async function spendTotpCode(
  db: Queryable,
  deps: ServiceDeps<"clock" | "appSecret">,
  userId: number,
  code: string,
): Promise<boolean> {
  const factor = await factorOf(db, deps.appSecret, userId);
  if (!factor?.confirmedAt) return false;
  const step = stepOfCode(factor.secret, code, deps.clock);
  if (step === null) return false;
  const [accepted] = await db
    .update(totpFactors)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(totpFactors.userId, userId),
        isNotNull(totpFactors.confirmedAt),
        or(isNull(totpFactors.lastUsedStep), lt(totpFactors.lastUsedStep, step)),
      ),
    )
    .returning({ userId: totpFactors.userId });
  return accepted !== undefined;
}

/**
 * Spends one of the user's recovery codes: marks it used only while it is unused, so of two concurrent uses one
 * wins. Answers whether it counted.
 */
export async function spendRecoveryCode(
  db: Queryable,
  { clock, appSecret }: ServiceDeps<"clock" | "appSecret">,
  userId: number,
  code: string,
): Promise<boolean> {
  const [spent] = await db
    .update(recoveryCodes)
    .set({ usedAt: clock.now() })
    .where(
      and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, recoveryCodeHash(code, appSecret)), isNull(recoveryCodes.usedAt)),
    )
    .returning({ id: recoveryCodes.id });
  return spent !== undefined;
}

/**
 * Spends a second-step code of either kind, in the caller's transaction: a 6-digit code from the app, or a recovery
 * code (its use recorded in the audit trail). Answers whether it counted.
 */
export async function spendSecondStepCode(
  tx: Queryable,
  deps: ServiceDeps<"clock" | "appSecret">,
  userId: number,
  code: string,
): Promise<boolean> {
  if (totpCodePattern.test(code)) return spendTotpCode(tx, deps, userId, code);
  if (!(await spendRecoveryCode(tx, deps, userId, code))) return false;
  await recordAudit(tx, deps.clock, {
    actorId: userId,
    companyId: null,
    action: "second_factor.recovery_code_used",
    targetType: "user",
    targetId: userId,
  });
  return true;
}
