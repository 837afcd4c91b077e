// A meeting's lifecycle after it is scheduled: confirmed, moved (date, place, title) or cancelled, each change
// counted in the meeting's sequence (its calendar event's SEQUENCE) and told to its participants.
import { eq, sql } from "drizzle-orm";
import type { MeetingUpdate } from "../../../../shared/agenda";
import { latestYear, isStorableDate } from "../../../../shared/input";
import { meetingEndFrom, meetingNamePrefix, type MeetingStatus } from "../../../../shared/meeting-model";
import { displayName } from "../../../../shared/people";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import type { Transaction } from "../../db/client";
import { documents, meetingParticipants, meetings } from "../../db/schema";
import { meetingScheduleColumns } from "../../db/columns";
import { HttpError, conflict, notFound } from "../../http/errors";
import type { TenantContext } from "../../http/request-context";
import { meetingContents } from "../meetings/meetings.service";
import { notify } from "../notifications/notifications.service";
import { formatUtc } from "../../clock";

type LifecycleDeps = ServiceDeps<"db" | "clock">;

export const cancelledMeetingMessage = "A cancelled meeting cannot be changed";
export const pastMeetingMessage = "A past meeting cannot be confirmed";
export const pastCancelMessage = "A past meeting cannot be cancelled";

const invalid = (path: string, message: string) => new HttpError(400, message, {}, [{ path, message }]);

/** What the lifecycle reads and writes of a meeting row. */
interface MeetingState {
  title: string;
  startsAt: Date;
  endsAt: Date;
  location: string;
  status: MeetingStatus;
}

/**
 * The start and end the update asks for. The end is always start + 2 h: an `endDate` that says otherwise is
 * refused, as scheduling refuses it. A start that moves must move into the future; a `date` equal to the
 * stored one moves nothing (a form may send every field), even for a meeting already past.
 */
function timesOf(update: MeetingUpdate, stored: MeetingState, now: Date): Pick<MeetingState, "startsAt" | "endsAt"> {
  const startsAt = update.date ?? stored.startsAt;
  const endsAt = meetingEndFrom(startsAt);
  if (update.endDate && update.endDate.getTime() !== endsAt.getTime()) {
    throw invalid("endDate", "End date must be two hours after the start");
  }
  if (startsAt.getTime() === stored.startsAt.getTime()) return { startsAt: stored.startsAt, endsAt: stored.endsAt };
  if (startsAt <= now) throw invalid("date", "The new date must be in the future");
  if (!isStorableDate(endsAt)) throw invalid("date", `The meeting must end by the year ${latestYear}`);
  return { startsAt, endsAt };
}

type ChangeKind = "confirmed" | "cancelled" | "rescheduled" | "updated";

/** The change people are told about (a new status first, then a move), or null when nothing changes. */
function changeOf(before: MeetingState, after: MeetingState): ChangeKind | null {
  if (after.status !== before.status) return after.status === "cancelled" ? "cancelled" : "confirmed";
  if (after.startsAt.getTime() !== before.startsAt.getTime()) return "rescheduled";
  if (after.location !== before.location || after.title !== before.title) return "updated";
  return null;
}

/** The notification's title and body: what happened, and when and where the meeting now is (or was to be). */
function message(change: ChangeKind, actor: string, before: MeetingState, after: MeetingState): { title: string; body: string } {
  const when = `${formatUtc(after.startsAt)}, ${after.location}`;
  const what = `"${after.title}"`;
  const bodies: Record<ChangeKind, string> = {
    confirmed: `${actor} confirmed ${what}: ${when}.`,
    cancelled: `${actor} cancelled ${what}, planned for ${when}.`,
    rescheduled: `${actor} moved ${what} to ${when}.`,
    updated: `${actor} changed ${what}: ${when}.`,
  };
  const renamed = after.title !== before.title ? ` It was called "${before.title}".` : "";
  return { title: `Meeting ${change}: ${after.title}`, body: `${bodies[change]}${renamed}` };
}

/** What the audit trail keeps of a change: each field that changed, as it was and as it is. */
function changedFields(before: MeetingState, after: MeetingState): Record<string, { from: string; to: string }> {
  const text = (state: MeetingState) => ({
    title: state.title,
    startsAt: state.startsAt.toISOString(),
    location: state.location,
    status: state.status,
  });
  const [was, now] = [text(before), text(after)];
  const fields = Object.keys(was) as (keyof typeof was)[];
  return Object.fromEntries(
    fields.filter((field) => was[field] !== now[field]).map((field) => [field, { from: was[field], to: now[field] }]),
  );
}

/** The meeting's document follows its rows: its name carries the title, its size the rebuilt content's bytes. */
async function refreshDocument(tx: Transaction, meetingId: number, title: string): Promise<void> {
  const content = (await meetingContents(tx, [meetingId])).get(meetingId) ?? "";
  await tx
    .update(documents)
    .set({ name: `${meetingNamePrefix}${title}`, fileSize: Buffer.byteLength(content, "utf8") })
    .where(eq(documents.id, meetingId));
}

/**
 * `PATCH /api/meetings/:id` (the guard has checked the company and the manageMeeting permission): confirms,
 * cancels or reschedules, in one transaction under the meeting's row lock, so two changes at once apply one
 * after the other and each sees the other's result. A cancelled meeting is final (409); a past one cannot be
 * confirmed nor cancelled (409): once it has started it has taken place. Moving a meeting keeps its status: whoever may confirm a meeting is the one moving it, so
 * a confirmed meeting moved is confirmed at its new time. A request that changes nothing changes nothing: no
 * new sequence, no notification.
 */
export async function updateMeeting(deps: LifecycleDeps, tenant: TenantContext, meetingId: number, update: MeetingUpdate): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [stored] = await tx
      .select({
        ...meetingScheduleColumns,
      })
      .from(meetings)
      .where(eq(meetings.documentId, meetingId))
      .for("update");
    if (!stored || stored.status === "draft") throw notFound("Meeting not found");
    if (stored.status === "cancelled") throw conflict(cancelledMeetingMessage);

    const next: MeetingState = {
      title: update.title ?? stored.title,
      ...timesOf(update, stored, now),
      location: update.location ?? stored.location,
      status: update.status ?? stored.status,
    };
    if (next.status === "confirmed" && stored.status !== "confirmed" && next.startsAt <= now) throw conflict(pastMeetingMessage);
    if (next.status === "cancelled" && next.startsAt <= now) throw conflict(pastCancelMessage);
    const change = changeOf(stored, next);
    if (!change) return;

    await tx
      .update(meetings)
      .set({ ...next, sequence: sql`${meetings.sequence} + 1` })
      .where(eq(meetings.documentId, meetingId));
    await refreshDocument(tx, meetingId, next.title);
    await recordAudit(tx, deps.clock, {
      actorId: tenant.user.id,
      companyId: tenant.company.id,
      action: "meeting.updated",
      targetType: "meeting",
      targetId: meetingId,
      details: { change, ...changedFields(stored, next) },
    });

    const participants = await tx
      .select({ userId: meetingParticipants.userId })
      .from(meetingParticipants)
      .where(eq(meetingParticipants.meetingId, meetingId));
    // Whoever made the change knows; every other participant is told (unless their Meeting Reminders switch is off).
    await notify(tx, {
      kind: "meetingChanged",
      companyId: tenant.company.id,
      recipients: participants.map((row) => row.userId).filter((userId) => userId !== tenant.user.id),
      ...message(change, displayName(tenant.user), stored, next),
      link: `/meetings/${meetingId}`,
      at: now,
    });
  });
}
