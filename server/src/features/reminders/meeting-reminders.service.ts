import type { ServiceDeps } from "../../app-deps";
import { formatUtc } from "../../clock";
import { participantsOfMeetingsStarting } from "../meetings/upcoming-meetings.service";
import { dayMs, freshByItem, hourMs, markOnce } from "./job-marks";
import { notify } from "../notifications/notifications.service";

/** A meeting's reminder goes out once it starts within this window. */
export const reminderLeadMs = dayMs;

/** Keyed by the start too: a meeting moved after its reminder went out is reminded again before its new time. */
const reminderKey = (row: { id: number; startsAt: Date; userId: number }) =>
  `meeting-reminder:${row.id}:${row.startsAt.getTime()}:${row.userId}`;

/**
 * The meeting reminder: every participant of a pending or confirmed meeting that starts within the next 24 hours
 * is told once (Meeting Reminders switch), however often the job runs. One transaction; a fixed number of
 * statements per meeting reminded.
 */
export async function sendMeetingReminders({ db, clock }: ServiceDeps<"db" | "clock">): Promise<number> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const due = await participantsOfMeetingsStarting(tx, { after: now, until: new Date(now.getTime() + reminderLeadMs) });
    const fresh = await markOnce(tx, due.map(reminderKey), now);
    let told = 0;
    for (const { item: meeting, recipients } of freshByItem(due, fresh, reminderKey)) {
      const hours = Math.max(1, Math.round((meeting.startsAt.getTime() - now.getTime()) / hourMs));
      const ids = await notify(tx, {
        kind: "meetingReminder",
        companyId: meeting.companyId,
        recipients,
        title: `Reminder: ${meeting.title} in ${hours} hour${hours === 1 ? "" : "s"}`,
        body: `"${meeting.title}" starts ${formatUtc(meeting.startsAt)} (${meeting.location}).`,
        link: `/meetings/${meeting.id}`,
        at: now,
      });
      told += ids.length;
    }
    return told;
  });
}
