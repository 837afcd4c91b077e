import * as meetingRecordApi from "@shared/api/meeting-record";
import { noMinutes, type Attendance, type AttendanceStatus, type Minutes } from "@shared/meeting-record";
import { handle } from "@/testing/handle";
import { server } from "@/testing/server";

/** An attendee as GET /api/meetings/:id/attendance lists them. */
export function buildAttendee(userId: number, name: string, status: AttendanceStatus = "absent", role: string | null = "member") {
  return { userId, name, role, status };
}

/** The board of the record's tests as attendees: Ada Lovelace (1, founder), Grace Hopper (2), Alan Turing (3) and Olive Observer (4, observer), with these statuses in that order. */
export function boardAttendees(statuses: readonly [AttendanceStatus, AttendanceStatus, AttendanceStatus, AttendanceStatus]) {
  const board = [
    [1, "Ada Lovelace", "founder"],
    [2, "Grace Hopper", "member"],
    [3, "Alan Turing", "member"],
    [4, "Olive Observer", "observer"],
  ] as const;
  return board.map(([userId, name, role], index) => buildAttendee(userId, name, statuses[index], role));
}

/** A meeting's attendance: nobody recorded yet, and not quorate, unless told. */
export function buildAttendance(fields: Partial<Attendance> = {}): Attendance {
  return {
    attendees: [],
    guests: [],
    chairId: null,
    closedAt: null,
    quorum: { voting: 0, required: 1, present: 0, quorate: false, rule: "more than half of the eligible voters" },
    ...fields,
  };
}

/** A meeting's minutes: not drafted, unless told. */
export function buildMinutes(fields: Partial<Minutes> = {}): Minutes {
  return { ...noMinutes, ...fields };
}

/** The text of a drafted meeting's minutes. */
export const draftText = "MINUTES OF Q3 Board Meeting\n\nPresent: Ada Lovelace (chair)";

/** Minutes drafted the morning after the meeting, not circulated yet. */
export const draftedMinutes = buildMinutes({ status: "draft", text: draftText, updatedAt: "2026-06-01T08:00:00.000Z" });

/** Answers GET of a meeting's attendance, minutes and action items (nothing recorded, unless told). */
export function serveMeetingRecord(meetingId: number, record: { attendance?: Attendance; minutes?: Minutes } = {}) {
  const params = { id: meetingId };
  server.use(
    handle(meetingRecordApi.meetingActionItems, () => [], { params }),
    handle(meetingRecordApi.getAttendance, () => record.attendance ?? buildAttendance(), { params }),
    handle(meetingRecordApi.getMinutes, () => record.minutes ?? buildMinutes(), { params }),
  );
}
