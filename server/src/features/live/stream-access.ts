import { and, eq, inArray, isNotNull, or } from "drizzle-orm";
import type { Database } from "../../db/client";
import { companies, memberships, sessions } from "../../db/schema";
import { sessionIdleLimitMs } from "../../http/session";

// What a session's event streams may receive, and until when.

/**
 * The companies whose events each of these sessions may receive, in one query: its user's, less those that
 * require a second factor the session did not pass. A session that is gone receives none.
 */
export async function companiesOf(db: Database, sessionIds: readonly number[]): Promise<Map<number, Set<number>>> {
  const rows = await db
    .select({ sessionId: sessions.id, companyId: memberships.companyId })
    .from(sessions)
    .innerJoin(memberships, eq(memberships.userId, sessions.userId))
    .innerJoin(companies, eq(companies.id, memberships.companyId))
    .where(and(inArray(sessions.id, [...sessionIds]), or(eq(companies.requireSecondFactor, false), isNotNull(sessions.secondFactorAt))));
  const result = new Map<number, Set<number>>(sessionIds.map((sessionId) => [sessionId, new Set<number>()]));
  for (const row of rows) result.get(row.sessionId)!.add(row.companyId);
  return result;
}

/** When a session lapses: at its absolute expiry, or after the idle limit from its last use, whichever is first. */
const lapseOf = (row: { expiresAt: Date; lastUsedAt: Date }) =>
  Math.min(row.expiresAt.getTime(), row.lastUsedAt.getTime() + sessionIdleLimitMs);

export async function lapseTimes(db: Database, sessionIds: readonly number[]): Promise<Map<number, number>> {
  const rows = await db
    .select({ id: sessions.id, expiresAt: sessions.expiresAt, lastUsedAt: sessions.lastUsedAt })
    .from(sessions)
    .where(inArray(sessions.id, [...sessionIds]));
  return new Map(rows.map((row) => [row.id, lapseOf(row)]));
}
