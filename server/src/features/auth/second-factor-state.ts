import { createHash, randomBytes } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Clock } from "../../clock";
import type { Queryable } from "../../db/client";
import { authChallenges, passkeys, totpFactors, users, type AuthChallengePurpose } from "../../db/schema";

// What the second factors share: the user's flag (has one or not), and the short-lived single-use challenges
// of a sign-in in progress and of WebAuthn ceremonies.

/** How long a challenge lives: the second step of a sign-in, a passkey ceremony. */
export const challengeLifetimeMs = 5 * 60_000;

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

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

/** Issues a challenge; answers the token the client holds (only its digest is stored). Expired ones are swept. */
export async function issueChallenge(
  db: Queryable,
  clock: Clock,
  challenge: { purpose: AuthChallengePurpose; userId: number | null; webauthnChallenge?: string },
): Promise<string> {
  const now = clock.now();
  await db.delete(authChallenges).where(lt(authChallenges.expiresAt, now));
  const token = randomBytes(32).toString("base64url");
  await db.insert(authChallenges).values({
    tokenHash: digest(token),
    purpose: challenge.purpose,
    userId: challenge.userId,
    webauthnChallenge: challenge.webauthnChallenge ?? null,
    expiresAt: new Date(now.getTime() + challengeLifetimeMs),
    createdAt: now,
  });
  return token;
}

export type ChallengeRow = typeof authChallenges.$inferSelect;

/** Reads a live challenge of the purpose without spending it (a wrong code leaves the sign-in open); null when none. */
export async function peekChallenge(
  db: Queryable,
  clock: Clock,
  token: string,
  purpose: AuthChallengePurpose,
): Promise<ChallengeRow | null> {
  const [row] = await db
    .select()
    .from(authChallenges)
    .where(and(eq(authChallenges.tokenHash, digest(token)), eq(authChallenges.purpose, purpose)));
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
  const [row] = await db
    .delete(authChallenges)
    .where(and(eq(authChallenges.tokenHash, digest(token)), eq(authChallenges.purpose, purpose)))
    .returning();
  return row && row.expiresAt > clock.now() ? row : null;
}
