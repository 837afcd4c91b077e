import { and, count, eq, gt, lt, sql } from "drizzle-orm";
import { formatUtc, type Clock } from "../../clock";
import { recordAudit } from "../../db/audit";
import type { Database, Queryable } from "../../db/client";
import { authChallenges, passkeys, secondFactorFailures, sessions, totpFactors, users, type AuthChallengePurpose } from "../../db/schema";
import { HttpError } from "../../http/errors";
import { linkTokenDigest, newLinkToken } from "../../crypto/link-token";
import type { UserRow } from "../../http/request-context";
import { tellAccountHolder } from "../notifications/outbox.service";

// What the second factors share: the user's flag (has one or not), and the short-lived single-use challenges
// of a sign-in in progress and of WebAuthn ceremonies.

/** How long a challenge lives: the second step of a sign-in, a passkey ceremony. */
export const challengeLifetimeMs = 5 * 60_000;

/**
 * Sets the user's `second_factor` flag from what they have: a confirmed authenticator app or a passkey.
 * Call it in the transaction that adds or removes a factor. The user's row is locked by a statement of its own
 * first: the flag's statement then starts after any other change of this user's factors has committed, and so
 * sees it (two changes at once — an app confirmed while the last passkey goes — could otherwise leave it false).
 */
export async function refreshSecondFactorFlag(tx: Queryable, userId: number): Promise<boolean> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
  const [row] = await tx
    .update(users)
    .set({
      secondFactor: sql`exists (select 1 from ${totpFactors} where ${totpFactors.userId} = ${userId} and ${totpFactors.confirmedAt} is not null)
        or exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId})`,
    })
    .where(eq(users.id, userId))
    .returning({ secondFactor: users.secondFactor });
  return row?.secondFactor ?? false;
}

/** Who adds or checks a factor: the user, and the session they do it in. */
export interface FactorCaller {
  user: UserRow;
  sessionId: number;
}

/**
 * The session has just passed a second factor: a factor checked by re-authentication, or one added in a freshly
 * proved session, which a company that requires one then lets in.
 */
export async function passedSecondFactor(tx: Queryable, clock: Clock, sessionId: number): Promise<void> {
  await tx.update(sessions).set({ secondFactorAt: clock.now() }).where(eq(sessions.id, sessionId));
}

/** Issues a challenge; answers the token the client holds (only its digest is stored). Expired ones are swept. */
export async function issueChallenge(
  db: Queryable,
  clock: Clock,
  challenge: { purpose: AuthChallengePurpose; userId: number | null; webauthnChallenge?: string },
  /** A token made beforehand, when what the challenge signs must name it (a signing statement's nonce). */
  made: { token: string; tokenHash: string } = newLinkToken(),
): Promise<string> {
  const now = clock.now();
  await db.delete(authChallenges).where(lt(authChallenges.expiresAt, now));
  const { token, tokenHash } = made;
  await db.insert(authChallenges).values({
    tokenHash,
    purpose: challenge.purpose,
    userId: challenge.userId,
    webauthnChallenge: challenge.webauthnChallenge ?? null,
    expiresAt: new Date(now.getTime() + challengeLifetimeMs),
    createdAt: now,
  });
  return token;
}

export type ChallengeRow = typeof authChallenges.$inferSelect;

/** The challenge of this purpose whose token the client holds. */
const challengeOf = (token: string, purpose: AuthChallengePurpose) =>
  and(eq(authChallenges.tokenHash, linkTokenDigest(token)), eq(authChallenges.purpose, purpose));

/** Reads a live challenge of the purpose without spending it (a wrong code leaves the sign-in open); null when none. */
export async function peekChallenge(
  db: Queryable,
  clock: Clock,
  token: string,
  purpose: AuthChallengePurpose,
): Promise<ChallengeRow | null> {
  const [row] = await db.select().from(authChallenges).where(challengeOf(token, purpose));
  return row && row.expiresAt > clock.now() ? row : null;
}

/**
 * Spends a challenge: deletes it and answers it when it was live and of the purpose; null otherwise. Of two
 * concurrent takers only one gets the row (the delete is the claim), so a challenge completes one sign-in.
 */
export async function takeChallenge(
  db: Queryable,
  clock: Clock,
  token: string,
  purpose: AuthChallengePurpose,
): Promise<ChallengeRow | null> {
  const [row] = await db.delete(authChallenges).where(challengeOf(token, purpose)).returning();
  return row && row.expiresAt > clock.now() ? row : null;
}

// --- Guessing second-step codes ---

/** Codes one sign-in takes: after the fifth wrong one it is gone. */
export const codesPerChallenge = 5;
/** Failed second steps of an account within an hour that lock its second step. */
export const failuresBeforeLock = 10;
const failureWindowMs = 60 * 60_000;
/** The first lock; each later one lasts twice the one before, up to a day. */
export const firstLockMs = 15 * 60_000;
export const longestLockMs = 24 * 60 * 60_000;

/** A wrong code: thrown inside the transaction it was checked in, it rolls that back; the failure is recorded after. */
export class WrongCode extends Error {}

/**
 * Takes one try of a live challenge, before its code is checked: the count goes up in the same statement that
 * checks it, so however many tries arrive at once, no more than five are ever checked. A right code then spends
 * the challenge, so only wrong codes are left counted. Null when the challenge is gone: expired, unknown, spent,
 * or out of tries.
 */
export async function takeChallengeTry(
  db: Queryable,
  clock: Clock,
  token: string,
  purpose: AuthChallengePurpose,
): Promise<ChallengeRow | null> {
  const [row] = await db
    .update(authChallenges)
    .set({ failures: sql`${authChallenges.failures} + 1` })
    .where(and(challengeOf(token, purpose), gt(authChallenges.expiresAt, clock.now()), lt(authChallenges.failures, codesPerChallenge)))
    .returning();
  return row ?? null;
}

/** 429 with Retry-After while the account's second step is locked, whatever the code: a right one too. */
export function assertSecondStepOpen(clock: Clock, user: { secondFactorLockedUntil: Date | null }): void {
  const left = (user.secondFactorLockedUntil?.getTime() ?? 0) - clock.now().getTime();
  if (left <= 0) return;
  throw new HttpError(429, "Too many wrong codes for this account: the second step of signing in is locked for a while. Try again later.", {
    "Retry-After": String(Math.ceil(left / 1000)),
  });
}

/**
 * Records a failed second step of the account (a wrong code, a passkey that did not verify). The tenth within an
 * hour locks the account's second step: 15 minutes, twice as long at each later lock, at most a day; failures
 * before a lock ended do not count towards the next. The holder is e-mailed at the first lock of a series (none
 * since the last right second step or password reset). The user's row is locked first, so concurrent failures are
 * counted one after another and lock the account once.
 */
export async function recordSecondFactorFailure(db: Database, clock: Clock, userId: number): Promise<void> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const [user] = await tx
      .select({
        id: users.id,
        email: users.email,
        emailVerified: users.emailVerified,
        locks: users.secondFactorLocks,
        lockedUntil: users.secondFactorLockedUntil,
      })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!user) return;
    await tx.insert(secondFactorFailures).values({ userId, failedAt: now });
    const hourAgo = now.getTime() - failureWindowMs;
    const since = new Date(Math.max(hourAgo, user.lockedUntil?.getTime() ?? 0));
    const [{ value: failures } = { value: 0 }] = await tx
      .select({ value: count() })
      .from(secondFactorFailures)
      .where(and(eq(secondFactorFailures.userId, userId), gt(secondFactorFailures.failedAt, since)));
    // Failures older than the window count for nothing any more.
    await tx
      .delete(secondFactorFailures)
      .where(and(eq(secondFactorFailures.userId, userId), lt(secondFactorFailures.failedAt, new Date(hourAgo))));
    if (failures < failuresBeforeLock) return;
    // Math.min also tames 2 ** locks once it overflows to Infinity, which would make no date at all.
    const lockedUntil = new Date(now.getTime() + Math.min(firstLockMs * 2 ** user.locks, longestLockMs));
    await tx
      .update(users)
      .set({ secondFactorLockedUntil: lockedUntil, secondFactorLocks: sql`${users.secondFactorLocks} + 1` })
      .where(eq(users.id, userId));
    await recordAudit(tx, clock, {
      actorId: null,
      companyId: null,
      action: "second_factor.locked",
      targetType: "user",
      targetId: userId,
      details: { failures, lockedUntil: lockedUntil.toISOString(), lock: user.locks + 1 },
    });
    if (user.locks === 0) {
      await tellAccountHolder(
        tx,
        clock,
        user,
        `Someone entered ${failures} wrong sign-in codes for your account within an hour, so signing in with a second factor is locked until ${formatUtc(lockedUntil)}. They knew your password: change it.`,
      );
    }
  });
}

/**
 * The account's second step succeeded (or its password was reset by a link to its address): the holder is back,
 * so earlier failures and locks count for nothing, and the next lock is a first one again. In the caller's
 * transaction.
 */
export async function clearSecondFactorLock(tx: Queryable, userId: number): Promise<void> {
  await tx.update(users).set({ secondFactorLocks: 0, secondFactorLockedUntil: null }).where(eq(users.id, userId));
  await tx.delete(secondFactorFailures).where(eq(secondFactorFailures.userId, userId));
}
