import { and, eq, gt, lte, sql } from "drizzle-orm";
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
 * Retry-After once the key has had `limit` events within the window. The event is recorded first and the window
 * counted after, so concurrent events all see each other. A refused event takes its own row back: only allowed
 * events count, so the oldest of them leaving the window (what Retry-After names) lets the next one in.
 */
export async function countAgainstLimit(db: Queryable, clock: Clock, rule: RateLimit, key: string): Promise<void> {
  const now = clock.now();
  const windowStart = new Date(now.getTime() - rule.windowMs);
  // Events older than any window are no longer counted: dropping them on every call keeps the table small.
  await db.delete(rateEvents).where(and(eq(rateEvents.bucket, rule.bucket), lte(rateEvents.at, windowStart)));
  const [event] = await db.insert(rateEvents).values({ bucket: rule.bucket, key, at: now }).returning({ id: rateEvents.id });
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number), oldest: sql<string | null>`min(${rateEvents.at})` })
    .from(rateEvents)
    .where(and(eq(rateEvents.bucket, rule.bucket), eq(rateEvents.key, key), gt(rateEvents.at, windowStart)));
  if ((row?.count ?? 0) <= rule.limit) return;
  if (event) await db.delete(rateEvents).where(eq(rateEvents.id, event.id));
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : now.getTime();
  const retryAfterSeconds = Math.max(1, Math.ceil((oldest + rule.windowMs - now.getTime()) / 1000));
  throw new HttpError(429, rule.message, { "Retry-After": String(retryAfterSeconds) });
}
