// Who has yet to sign a pending written resolution, and the reminders they were sent: read by the reminders' job
// and the nudge, so both name those awaited by the same rule as a signature itself (`resolutionVoters`).
import { lte, sql } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { writtenSignatureReminders, writtenSignatures } from "../../db/schema";
import { awaitedAnswers } from "./eligible-voters";

export type WrittenReminderKind = (typeof writtenSignatureReminders.$inferInsert)["kind"];

/**
 * Every eligible director of a pending written resolution that lapses (its deadline) after `after` and at `until` at
 * the latest, who has not signed it: see `awaitedAnswers`. A signature takes the row lock too, so it waits as a
 * decision does.
 */
export function signersYetToSign(db: Queryable, { after, until }: { after: Date; until: Date }) {
  return awaitedAnswers(db, { procedure: "written", answers: writtenSignatures, after, until });
}

/**
 * Records reminders of a kind as sent (one per director per resolution per kind, ever) and answers those that were
 * not sent before, as `resolutionId:userId`: one statement whatever their number.
 */
export async function markRemindersSent(
  db: Queryable,
  rows: readonly { resolutionId: number; userId: number; kind: WrittenReminderKind }[],
  at: Date,
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const fresh = await db
    .insert(writtenSignatureReminders)
    .values(rows.map((row) => ({ ...row, sentAt: at })))
    .onConflictDoNothing()
    .returning({
      resolutionId: writtenSignatureReminders.resolutionId,
      userId: writtenSignatureReminders.userId,
      kind: writtenSignatureReminders.kind,
    });
  return new Set(fresh.map((row) => `${row.resolutionId}:${row.userId}:${row.kind}`));
}

/**
 * Records a nudge to `userId` at `at` unless one was sent in the day before it: true when recorded. One statement, so
 * two nudges at once record one.
 */
export async function markNudged(db: Queryable, resolutionId: number, userId: number, at: Date, intervalMs: number): Promise<boolean> {
  const since = new Date(at.getTime() - intervalMs);
  const rows = await db
    .insert(writtenSignatureReminders)
    .values({ resolutionId, userId, kind: "nudge", sentAt: at })
    .onConflictDoUpdate({
      target: [writtenSignatureReminders.resolutionId, writtenSignatureReminders.userId, writtenSignatureReminders.kind],
      set: { sentAt: sql`excluded.sent_at` },
      setWhere: lte(writtenSignatureReminders.sentAt, since),
    })
    .returning({ userId: writtenSignatureReminders.userId });
  return rows.length > 0;
}
