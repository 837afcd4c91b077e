// Reading a meeting's attendance and quorum: what the attendance screen, a show of hands, its certificate and the
// minutes are all built from, so they can never disagree.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { attendingStatuses, type Attendance } from "../../../../shared/meeting-record";
import type { AttendanceStatus } from "../../../../shared/meeting-model";
import { displayName } from "../../../../shared/people";
import { canKeepMeetingRecord, deniedMessage, votingRoles } from "../../../../shared/permissions";
import type { CompanyRole } from "../../../../shared/roles";
import { quorumRequired, quorumRule } from "../../../../shared/resolutions";
import type { Queryable } from "../../db/client";
import { companies, meetingAttendance, meetingGuests, meetingParticipants, meetings, memberships, users } from "../../db/schema";
import { meetingScheduleColumns, nameColumns } from "../../db/columns";
import { forbidden, notFound } from "../../http/errors";

/** A meeting as its record needs it. */
export interface RecordedMeeting {
  id: number;
  companyId: number;
  title: string;
  startsAt: Date;
  endsAt: Date;
  location: string;
  status: string;
  createdBy: number | null;
  chairId: number | null;
  closedAt: Date | null;
  quorumPercent: number | null;
}

/**
 * The meeting and its company's quorum setting, or undefined (a draft is no meeting). With `lock`, the meeting's
 * row alone is locked (never the company's): "update" to change its record, "share" to read it steady.
 */
export async function findRecordedMeeting(
  db: Queryable,
  meetingId: number,
  lock?: "update" | "share",
): Promise<RecordedMeeting | undefined> {
  const query = db
    .select({
      id: meetings.documentId,
      companyId: meetings.companyId,
      ...meetingScheduleColumns,
      createdBy: meetings.createdBy,
      chairId: meetings.chairId,
      closedAt: meetings.closedAt,
      quorumPercent: companies.quorumPercent,
    })
    .from(meetings)
    .innerJoin(companies, eq(companies.id, meetings.companyId))
    .where(and(eq(meetings.documentId, meetingId), sql`${meetings.status} <> 'draft'`));
  const [found] = lock ? await query.for(lock, { of: meetings }) : await query;
  return found;
}

/** The meeting and its company's quorum setting, or 404 (a draft is no meeting). */
export async function recordedMeeting(db: Queryable, meetingId: number, lock?: "update" | "share"): Promise<RecordedMeeting> {
  const found = await findRecordedMeeting(db, meetingId, lock);
  if (!found) throw notFound("Meeting not found");
  return found;
}

/** Who keeps a meeting's record (attendance, minutes, action items): a founder, an admin, or the meeting's creator. */
export function keepsRecordOf(meeting: Pick<RecordedMeeting, "createdBy">, caller: { userId: number; role: CompanyRole | null }): boolean {
  return canKeepMeetingRecord(caller.role, meeting.createdBy === caller.userId);
}

/** Refused (403) unless the caller keeps the meeting's record. */
export function requireRecordKeeper(
  meeting: Pick<RecordedMeeting, "createdBy">,
  caller: { userId: number; role: CompanyRole | null },
): void {
  if (!keepsRecordOf(meeting, caller)) throw forbidden(deniedMessage("keepAnyMeetingRecord"));
}

/**
 * The attendance of a meeting in four queries, whatever its size: every participant (in name order) with their
 * recorded status (absent when none), their role in the company now, the guests, and the quorum — the company's
 * voting members (founders, admins, members; never observers or guests) recorded present or remote, against the
 * company's quorum setting (null: more than half).
 */
export async function readAttendance(db: Queryable, meeting: RecordedMeeting): Promise<Attendance> {
  const [participants, guests, [voting]] = await Promise.all([
    db
      .select({
        userId: users.id,
        ...nameColumns,
        role: memberships.role,
        status: meetingAttendance.status,
      })
      .from(meetingParticipants)
      .innerJoin(users, eq(users.id, meetingParticipants.userId))
      .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.companyId, meeting.companyId)))
      .leftJoin(
        meetingAttendance,
        and(eq(meetingAttendance.meetingId, meetingParticipants.meetingId), eq(meetingAttendance.userId, users.id)),
      )
      .where(eq(meetingParticipants.meetingId, meeting.id))
      .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id)),
    db
      .select({ name: meetingGuests.name })
      .from(meetingGuests)
      .where(eq(meetingGuests.meetingId, meeting.id))
      .orderBy(asc(meetingGuests.position)),
    db
      .select({ count: sql<number>`count(*)`.mapWith(Number) })
      .from(memberships)
      .where(and(eq(memberships.companyId, meeting.companyId), inArray(memberships.role, votingRoles))),
  ]);
  const attendees = participants.map((row) => ({
    userId: row.userId,
    name: displayName(row),
    role: row.role ?? null,
    status: (row.status ?? "absent") as AttendanceStatus,
  }));
  const votingCount = voting?.count ?? 0;
  const present = attendees.filter(
    (attendee) => attendee.role !== null && votingRoles.includes(attendee.role) && attendingStatuses.includes(attendee.status),
  ).length;
  const required = quorumRequired(votingCount, meeting.quorumPercent);
  return {
    attendees,
    guests,
    chairId: meeting.chairId,
    closedAt: meeting.closedAt?.toISOString() ?? null,
    quorum: {
      voting: votingCount,
      required,
      present,
      quorate: votingCount > 0 && present >= required,
      rule: quorumRule(meeting.quorumPercent),
    },
  };
}
