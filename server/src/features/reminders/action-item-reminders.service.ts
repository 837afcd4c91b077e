import type { ServiceDeps } from "../../app-deps";
import { formatUtcDate } from "../../clock";
import { openActionItemsDueOn } from "../meeting-record/action-items-due.service";
import { dayMs, markOnce } from "./job-marks";
import { notifyEach, type NotifyInput } from "../notifications/notifications.service";

/** Keyed by the due date and the owner too: an item moved to a later date, or handed to someone else, is reminded again. */
const actionItemKey = (item: { id: number; dueDate: string; ownerId: number }) =>
  `action-item-due:${item.id}:${item.dueDate}:${item.ownerId}`;

/**
 * An action item's reminder: on the UTC day before its due date, the owner of every open item is told once
 * (Meeting Reminders switch), while they are still a member of its company. One transaction and a fixed number
 * of statements whatever the number of items.
 */
export async function sendActionItemReminders({ db, clock }: ServiceDeps<"db" | "clock">): Promise<number> {
  const now = clock.now();
  const tomorrow = new Date(now.getTime() + dayMs).toISOString().slice(0, 10);
  return db.transaction(async (tx) => {
    const due = await openActionItemsDueOn(tx, tomorrow);
    const fresh = await markOnce(tx, due.map(actionItemKey), now);
    const events: NotifyInput[] = due
      .filter((item) => fresh.has(actionItemKey(item)))
      .map((item) => ({
        kind: "actionItemDue",
        companyId: item.companyId,
        recipients: [item.ownerId],
        title: `Action item due tomorrow: ${item.title}`,
        body: `"${item.title}", from "${item.meetingTitle}", is due ${formatUtcDate(item.dueDate)}.`,
        link: `/meetings/${item.meetingId}`,
        at: now,
      }));
    const told = await notifyEach(tx, events);
    return told.reduce((sum, ids) => sum + ids.length, 0);
  });
}
