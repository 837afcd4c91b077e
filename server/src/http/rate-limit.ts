import { and, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { Clock } from "../clock";
import type { Queryable } from "../db/client";
import { rateEvents } from "../db/schema";
import { HttpError } from "./errors";

export interface RateLimit {
  /** Names the limit: events of one bucket count only against each other. */
  bucket: string;
  /** At most this many events per key in the window. */
  limit: number;
  windowMs: number;
  /** The 429's message. */
  message: string;
}

/**
 * Counts an event against a limit kept in the database (shared by every instance), refusing it with 429 and
 * Retry-After once the key has had `limit` events within the window. Only allowed events are recorded, so the oldest
 * of them leaving the window (what Retry-After names) lets the next one in. The count and the insert are made under
 * a transaction-level advisory lock on the bucket and key: a concurrent burst is admitted up to the limit, one after
 * the other, never all refused nor all allowed.
 */
export async function countAgainstLimit(db: Queryable, clock: Clock, rule: RateLimit, key: string): Promise<void> {
  await countAgainstLimits(db, clock, [{ rule, key }]);
}

/**
 * Counts one event against several limits at once (an AI call against its company's and its user's): all are
 * counted, or, when any refuses it, none (the 429 of the first to refuse). Callers name the limits in the same order
 * everywhere, so two of them never wait on each other's locks.
 */
export async function countAgainstLimits(db: Queryable, clock: Clock, counts: readonly { rule: RateLimit; key: string }[]): Promise<void> {
  const refusal = await db.transaction(async (tx) => {
    const recorded: number[] = [];
    for (const { rule, key } of counts) {
      const admitted = await admit(tx, clock, rule, key);
      if ("id" in admitted) {
        recorded.push(admitted.id);
        continue;
      }
      // The events counted for the limits before this one go again; the transaction commits, so what it swept stays swept.
      if (recorded.length > 0) await tx.delete(rateEvents).where(inArray(rateEvents.id, recorded));
      return { rule, retryAfterSeconds: admitted.retryAfterSeconds };
    }
    return null;
  });
  if (refusal) throw new HttpError(429, refusal.rule.message, { "Retry-After": String(refusal.retryAfterSeconds) });
}

/**
 * Counts an event against a limit that refuses silently: answers whether it was within the limit (and then counted),
 * for a caller that answers alike either way and only leaves undone what the limit holds back.
 */
export async function withinLimit(db: Queryable, clock: Clock, rule: RateLimit, key: string): Promise<boolean> {
  return "id" in (await db.transaction((tx) => admit(tx, clock, rule, key)));
}

/** Records the event when the key is within the limit and answers its id, else answers the seconds until it would be. */
async function admit(tx: Queryable, clock: Clock, rule: RateLimit, key: string): Promise<{ id: number } | { retryAfterSeconds: number }> {
  const now = clock.now();
  const windowStart = new Date(now.getTime() - rule.windowMs);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${rule.bucket}), hashtext(${key}))`);
  // Events older than any window are no longer counted: dropping them on every call keeps the table small. Rows
  // another call is dropping are left to it (skip locked): calls for other keys never wait on each other here.
  const stale = tx
    .select({ id: rateEvents.id })
    .from(rateEvents)
    .where(and(eq(rateEvents.bucket, rule.bucket), lte(rateEvents.at, windowStart)))
    .for("update", { skipLocked: true });
  await tx.delete(rateEvents).where(inArray(rateEvents.id, stale));
  const [row] = await tx
    .select({ count: sql<number>`count(*)`.mapWith(Number), oldest: sql<string | null>`min(${rateEvents.at})` })
    .from(rateEvents)
    .where(and(eq(rateEvents.bucket, rule.bucket), eq(rateEvents.key, key), gt(rateEvents.at, windowStart)));
  if ((row?.count ?? 0) < rule.limit) {
    const [event] = await tx.insert(rateEvents).values({ bucket: rule.bucket, key, at: now }).returning({ id: rateEvents.id });
    return { id: event!.id };
  }
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : now.getTime();
  return { retryAfterSeconds: Math.max(1, Math.ceil((oldest + rule.windowMs - now.getTime()) / 1000)) };
}
