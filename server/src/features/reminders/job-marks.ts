import type { Queryable } from "../../db/client";
import { jobMarks } from "../../db/schema";

export const hourMs = 60 * 60 * 1000;
export const dayMs = 24 * hourMs;

/**
 * Marks keys done once and answers those that were new: what a periodic job does only for these never repeats,
 * whichever instance runs it or how often.
 */
export async function markOnce(tx: Queryable, keys: string[], now: Date): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const fresh = await tx
    .insert(jobMarks)
    .values(keys.map((key) => ({ key, createdAt: now })))
    .onConflictDoNothing()
    .returning({ key: jobMarks.key });
  return new Set(fresh.map((row) => row.key));
}

/** The rows of a due list whose mark was new, grouped by what they are about (first seen first): one notice each. */
export function freshByItem<Row extends { id: number; userId: number }>(
  due: readonly Row[],
  fresh: Set<string>,
  keyOf: (row: Row) => string,
): { item: Row; recipients: number[] }[] {
  const byItem = new Map<number, { item: Row; recipients: number[] }>();
  for (const row of due) {
    if (!fresh.has(keyOf(row))) continue;
    const entry = byItem.get(row.id) ?? { item: row, recipients: [] };
    entry.recipients.push(row.userId);
    byItem.set(row.id, entry);
  }
  return [...byItem.values()];
}
