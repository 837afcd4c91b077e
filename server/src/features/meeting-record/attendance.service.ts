// Recording who attended a meeting: the whole list at once, under the meeting's row lock, once it has started and
// until its minutes are approved.
import { and, eq, inArray } from "drizzle-orm";
import { attendingStatuses, type Attendance, type AttendanceValues } from "../../../../shared/meeting-record";
import { displayName } from "../../../../shared/people";
import type { CompanyRole } from "../../../../shared/roles";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import type { Transaction } from "../../db/client";
import { meetingAttendance, meetingGuests, meetingMinutes, meetingParticipants, meetings, memberships, users } from "../../db/schema";
import { nameColumns } from "../../db/columns";
import { HttpError, conflict } from "../../http/errors";
import type { TenantContext } from "../../http/request-context";
import { readAttendance, recordedMeeting, requireRecordKeeper, type RecordedMeeting } from "./attendance.data";

type Deps = ServiceDeps<"db" | "clock">;

export const cancelledRecordMessage = "The meeting is cancelled: it has no record";
export const approvedAttendanceMessage = "The minutes are approved: the attendance cannot change";
export const notStartedMessage = "The meeting has not started yet";
export const closedBeforeStartMessage = "The time of close must be at or after the meeting's start";
export const closedInFutureMessage = "The time of close cannot be in the future";

type FieldError = { path: string; message: string };

const invalid = (errors: FieldError[]) => new HttpError(400, errors[0]?.message ?? "Invalid attendance", {}, errors);

/**
 * Whether the caller may keep this meeting's record, and whether it can take one now: refused (403) unless a
 * founder, an admin or the meeting's creator; a cancelled meeting, or one not yet started, has no record (409).
 */
export function refuseRecordOf(meeting: RecordedMeeting, caller: { userId: number; role: CompanyRole | null }, now: Date): void {
  requireRecordKeeper(meeting, caller);
  if (meeting.status === "cancelled") throw conflict(cancelledRecordMessage);
  if (now.getTime() < meeting.startsAt.getTime()) throw conflict(notStartedMessage);
}

/** `GET /api/meetings/:id/attendance` (the guard has checked the caller is a member of the meeting's company). */
export async function getAttendance(deps: Deps, meetingId: number): Promise<Attendance> {
  return readAttendance(deps.db, await recordedMeeting(deps.db, meetingId));
}

/** The attendees who are not participants of the meeting, each named when they are a member of its company. */
async function strangers(tx: Transaction, meeting: RecordedMeeting, input: AttendanceValues): Promise<FieldError[]> {
  const ids = input.attendees.map((attendee) => attendee.userId);
  if (ids.length === 0) return [];
  const [invited, named] = [
    await tx
      .select({ userId: meetingParticipants.userId })
      .from(meetingParticipants)
      .where(and(eq(meetingParticipants.meetingId, meeting.id), inArray(meetingParticipants.userId, ids))),
    await tx
      .select({ userId: users.id, ...nameColumns })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.companyId, meeting.companyId), inArray(memberships.userId, ids))),
  ];
  const participants = new Set(invited.map((row) => row.userId));
  const names = new Map(named.map((row) => [row.userId, displayName(row)]));
  return input.attendees.flatMap((attendee, index) => {
    if (participants.has(attendee.userId)) return [];
    // Someone of another company (or no one) is never named: the answer would reveal them.
    const name = names.get(attendee.userId);
    const message = name ? `${name} was not invited to this meeting` : "Not invited to this meeting";
    return [{ path: `attendees.${index}.userId`, message }];
  });
}

/**
 * `PUT /api/meetings/:id/attendance`: replaces the meeting's attendance, guests, chair and time of close (between
 * its start and now; null when not recorded) in one transaction under the meeting's row lock, so two records at
 * once apply one after the other. Participants not listed are absent (no row). Every
 * check comes before the first write, so a refusal leaves the old record whole.
 */
export async function recordAttendance(deps: Deps, tenant: TenantContext, meetingId: number, input: AttendanceValues): Promise<Attendance> {
  return deps.db.transaction(async (tx) => {
    const meeting = await recordedMeeting(tx, meetingId, "update");
    const now = deps.clock.now();
    refuseRecordOf(meeting, { userId: tenant.user.id, role: tenant.role }, now);
    const [minutes] = await tx
      .select({ status: meetingMinutes.status })
      .from(meetingMinutes)
      .where(eq(meetingMinutes.meetingId, meetingId));
    if (minutes?.status === "approved") throw conflict(approvedAttendanceMessage);

    const errors = await strangers(tx, meeting, input);
    const chairId = input.chairId ?? null;
    const chair = input.attendees.find((attendee) => attendee.userId === chairId);
    if (chairId !== null && !(chair && attendingStatuses.includes(chair.status))) {
      errors.push({ path: "chairId", message: "The chair must be an attendee recorded present or present by video" });
    }
    const closedAt = input.closedAt ?? null;
    if (closedAt && closedAt.getTime() < meeting.startsAt.getTime()) errors.push({ path: "closedAt", message: closedBeforeStartMessage });
    if (closedAt && closedAt.getTime() > now.getTime()) errors.push({ path: "closedAt", message: closedInFutureMessage });
    if (errors.length > 0) throw invalid(errors);

    const recorded = input.attendees.filter((attendee) => attendee.status !== "absent");
    await tx.delete(meetingAttendance).where(eq(meetingAttendance.meetingId, meetingId));
    if (recorded.length > 0) {
      await tx
        .insert(meetingAttendance)
        .values(recorded.map((attendee) => ({ meetingId, userId: attendee.userId, status: attendee.status })));
    }
    await tx.delete(meetingGuests).where(eq(meetingGuests.meetingId, meetingId));
    if (input.guests.length > 0) {
      await tx.insert(meetingGuests).values(input.guests.map((guest, position) => ({ meetingId, position, name: guest.name })));
    }
    await tx.update(meetings).set({ chairId, closedAt }).where(eq(meetings.documentId, meetingId));

    const counts = { present: 0, remote: 0, apologies: 0 };
    for (const attendee of recorded) if (attendee.status !== "absent") counts[attendee.status] += 1;
    await recordAudit(tx, deps.clock, {
      actorId: tenant.user.id,
      companyId: meeting.companyId,
      action: "meeting.attendance_recorded",
      targetType: "meeting",
      targetId: meetingId,
      // Counts only: who attended is the record itself, and the audit trail is read more widely.
      details: { ...counts, guests: input.guests.length, chair: chairId !== null, closed: closedAt !== null },
    });
    return readAttendance(tx, { ...meeting, chairId, closedAt });
  });
}
