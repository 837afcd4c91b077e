import type { ServiceDeps } from "../../app-deps";
import { formatUtc } from "../../clock";
import { markRemindersSent, signersYetToSign, type WrittenReminderKind } from "../resolutions/written-awaiting.service";
import { dayMs, hourMs } from "./job-marks";
import { notifyEach, type NotifyInput } from "../notifications/notifications.service";

/** A director yet to sign is reminded when the lapse comes within 3 days, and again within 1 day. */
export const writtenReminderLeads: readonly { kind: WrittenReminderKind; leadMs: number }[] = [
  { kind: "lapse-1-day", leadMs: dayMs },
  { kind: "lapse-3-days", leadMs: 3 * dayMs },
];
const furthestLeadMs = Math.max(...writtenReminderLeads.map((lead) => lead.leadMs));

/** "3 days", "1 day", or hours under a day. */
function timeLeft(ms: number): string {
  if (ms >= dayMs) {
    const days = Math.round(ms / dayMs);
    return `${days} day${days === 1 ? "" : "s"}`;
  }
  const hours = Math.max(1, Math.round(ms / hourMs));
  return `${hours} hour${hours === 1 ? "" : "s"}`;
}

/**
 * "A written resolution lapses soon": every eligible director who has not signed a pending written resolution is told
 * when its lapse comes within 3 days, and again within 1 day, once each (Resolution Voting switch), however often
 * the job runs: each reminder is recorded as sent whether or not the switch let it through. A director first found
 * within the last day gets only the last day's. One transaction and a fixed number of statements whatever the number
 * of resolutions or directors.
 */
export async function sendWrittenSignatureReminders({ db, clock }: ServiceDeps<"db" | "clock">): Promise<number> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const due = await signersYetToSign(tx, { after: now, until: new Date(now.getTime() + furthestLeadMs) });
    const withKind = due.map((row) => {
      const left = row.deadline.getTime() - now.getTime();
      const { kind } = writtenReminderLeads.find((lead) => left <= lead.leadMs)!;
      return { ...row, kind, key: `${row.id}:${row.userId}:${kind}` };
    });
    const fresh = await markRemindersSent(
      tx,
      withKind.map((row) => ({ resolutionId: row.id, userId: row.userId, kind: row.kind })),
      now,
    );
    // One notice per resolution and kind, to those newly due it.
    const byNotice = new Map<string, { row: (typeof withKind)[number]; recipients: number[] }>();
    for (const row of withKind) {
      if (!fresh.has(row.key)) continue;
      const notice = byNotice.get(`${row.id}:${row.kind}`) ?? { row, recipients: [] };
      notice.recipients.push(row.userId);
      byNotice.set(`${row.id}:${row.kind}`, notice);
    }
    const events: NotifyInput[] = [...byNotice.values()].map(({ row, recipients }) => ({
      kind: "writtenSignatureDue",
      companyId: row.companyId,
      recipients,
      title: `Lapses in ${timeLeft(row.deadline.getTime() - now.getTime())}: ${row.title}`,
      body: `You have not signed the written resolution "${row.title}" yet. It lapses ${formatUtc(row.deadline)}.`,
      link: `/resolutions/${row.id}`,
      at: now,
    }));
    const told = await notifyEach(tx, events);
    return told.reduce((sum, ids) => sum + ids.length, 0);
  });
}
