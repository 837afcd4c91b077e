import { and, eq } from "drizzle-orm";
import request from "supertest";
import { quorumSentence, type Attendance } from "../../../../shared/meeting-record";
import { auditEvents, meetingMinutes } from "../../db/schema";
import { meetingRecordFixtures } from "../../testing/meeting-record-fixtures";
import { useTestContext } from "../../testing/test-context";
import { closedBeforeStartMessage, closedInFutureMessage } from "./attendance.service";

const testStart = "2026-06-01T09:00:00.000Z";
const ctx = useTestContext();
afterEach(() => ctx.clock.set(testStart));

const { api, boardMeeting, inMeeting, attendance, recordAttendance, recorded } = meetingRecordFixtures(ctx);

async function attendanceOf(user: { bearer: string }, meetingId: number): Promise<Attendance> {
  const response = await attendance(user, meetingId);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as Attendance;
}

describe("GET /api/meetings/:id/attendance", () => {
  it("before anything is recorded: every participant absent in name order, no guests nor chair, not quorate", async () => {
    const { founder, members, others, meetingId } = await boardMeeting({ others: ["observer"] });
    const read = await attendanceOf(members[0]!, meetingId);
    expect(read).toEqual({
      attendees: [
        { userId: founder.id, name: "Fay Founder", role: "founder", status: "absent" },
        { userId: members[0]!.id, name: "Member1 Board", role: "member", status: "absent" },
        { userId: members[1]!.id, name: "Member2 Board", role: "member", status: "absent" },
        { userId: members[2]!.id, name: "Member3 Board", role: "member", status: "absent" },
        { userId: others[0]!.id, name: "Other1 Person", role: "observer", status: "absent" },
      ],
      guests: [],
      chairId: null,
      closedAt: null,
      quorum: { voting: 4, required: 3, present: 0, quorate: false, rule: "more than half of the eligible voters" },
    });
    expect(quorumSentence(read.quorum)).toBe("Not quorate: 0 of 4 voting members present (3 needed)");
    // An observer of the company reads it too.
    expect((await attendance(others[0]!, meetingId)).status).toBe(200);
  });

  it("costs the same number of queries for 3 participants as for 30", async () => {
    const small = await boardMeeting({ members: 2 });
    const large = await boardMeeting({ members: 29 });
    const smallCount = await ctx.countQueries(async () => expect((await attendance(small.founder, small.meetingId)).status).toBe(200));
    const largeCount = await ctx.countQueries(async () => expect((await attendance(large.founder, large.meetingId)).status).toBe(200));
    expect((await attendanceOf(large.founder, large.meetingId)).attendees).toHaveLength(30);
    expect(largeCount).toBe(smallCount);
  });

  it("another company's founder finds no meeting (404), nor can record it", async () => {
    const { meetingId, startsAt } = await boardMeeting();
    const stranger = (await ctx.board("Elsewhere Ltd")).founder;
    inMeeting(startsAt);
    expect((await attendance(stranger, meetingId)).status).toBe(404);
    expect((await recordAttendance(stranger, meetingId, { attendees: [], guests: [] })).status).toBe(404);
  });
});

describe("PUT /api/meetings/:id/attendance", () => {
  it("records present, by video, apologies and absent, guests and the chair; observers and guests never count for quorum", async () => {
    const { founder, members, others, meetingId, startsAt, company } = await boardMeeting({ others: ["observer"] });
    inMeeting(startsAt);
    const answer = await recorded(founder, meetingId, {
      attendees: [
        { userId: founder.id, status: "present" },
        { userId: members[0]!.id, status: "remote" },
        { userId: members[1]!.id, status: "present" },
        { userId: members[2]!.id, status: "apologies" },
        { userId: others[0]!.id, status: "present" },
      ],
      guests: [{ name: "Ada Auditor" }, { name: "Lee Lawyer" }],
      chairId: members[1]!.id,
    });
    expect(answer.attendees.map((attendee) => [attendee.name, attendee.status])).toEqual([
      ["Fay Founder", "present"],
      ["Member1 Board", "remote"],
      ["Member2 Board", "present"],
      ["Member3 Board", "apologies"],
      ["Other1 Person", "present"],
    ]);
    expect(answer.guests).toEqual([{ name: "Ada Auditor" }, { name: "Lee Lawyer" }]);
    expect(answer.chairId).toBe(members[1]!.id);
    expect(answer.quorum).toEqual({ voting: 4, required: 3, present: 3, quorate: true, rule: "more than half of the eligible voters" });
    expect(quorumSentence(answer.quorum)).toBe("Quorate: 3 of 4 voting members present");
    expect(await attendanceOf(members[2]!, meetingId)).toEqual(answer);

    const audit = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "meeting.attendance_recorded"), eq(auditEvents.targetId, String(meetingId))));
    expect(audit).toEqual([
      expect.objectContaining({
        actorId: founder.id,
        companyId: company.id,
        targetType: "meeting",
        details: { present: 3, remote: 1, apologies: 1, guests: 2, chair: true, closed: false },
      }),
    ]);

    // A second record replaces the whole list: those not listed are absent again, guests and chair go.
    const again = await recorded(founder, meetingId, { attendees: [{ userId: members[0]!.id, status: "absent" }], guests: [] });
    expect(again.attendees.map((attendee) => attendee.status)).toEqual(["absent", "absent", "absent", "absent", "absent"]);
    expect(again).toMatchObject({ guests: [], chairId: null, quorum: { present: 0, quorate: false } });
  });

  it("records the time of close: at or after the start and not after now; refused with the field named, keeping the old record", async () => {
    const { founder, members, meetingId, startsAt } = await boardMeeting();
    inMeeting(startsAt);
    const now = ctx.clock.now();
    const at = (offsetMs: number) => new Date(startsAt.getTime() + offsetMs).toISOString();
    const base = { attendees: [{ userId: founder.id, status: "present" as const }], guests: [], chairId: founder.id };

    // The first instant of the meeting and the present moment are both allowed.
    expect((await recorded(founder, meetingId, { ...base, closedAt: at(0) })).closedAt).toBe(at(0));
    const closed = await recorded(founder, meetingId, { ...base, closedAt: now.toISOString() });
    expect(closed.closedAt).toBe(now.toISOString());
    // A time with an offset is the same instant, answered in UTC.
    const offset = await recorded(founder, meetingId, { ...base, closedAt: "2026-06-02T10:30:00.000+01:00" });
    expect(offset.closedAt).toBe("2026-06-02T09:30:00.000Z");
    expect(await attendanceOf(members[0]!, meetingId)).toEqual(offset);
    const before = offset;

    const refusals: { closedAt: string; message: string }[] = [
      { closedAt: at(-60_000), message: closedBeforeStartMessage },
      { closedAt: new Date(now.getTime() + 1).toISOString(), message: closedInFutureMessage },
    ];
    for (const { closedAt, message } of refusals) {
      // The rest of the body would change the record: none of it is saved.
      const response = await recordAttendance(founder, meetingId, {
        attendees: [{ userId: members[0]!.id, status: "present" }],
        guests: [{ name: "Ada Auditor" }],
        chairId: members[0]!.id,
        closedAt,
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message, errors: [{ path: "closedAt", message }] });
      expect(await attendanceOf(founder, meetingId)).toEqual(before);
    }

    // Not given: not recorded (null), like the chair.
    const cleared = await recorded(founder, meetingId, base);
    expect(cleared.closedAt).toBeNull();
    const audit = await ctx.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "meeting.attendance_recorded"), eq(auditEvents.targetId, String(meetingId))));
    expect(audit.map((row) => (row.details as { closed: boolean }).closed)).toEqual([true, true, true, false]);
  });

  it("counts quorum by the company's setting: 3 of 5 is quorate by default, not at 75%", async () => {
    const { founder, members, meetingId, startsAt, company } = await boardMeeting({ members: 4 });
    inMeeting(startsAt);
    const body = {
      attendees: [founder, members[0]!, members[1]!].map((person) => ({ userId: person.id, status: "present" as const })),
      guests: [],
    };
    expect((await recorded(founder, meetingId, body)).quorum).toMatchObject({ voting: 5, required: 3, present: 3, quorate: true });

    const setting = await api().put(`/api/companies/${company.id}/quorum`).set("Authorization", founder.bearer).send({ quorumPercent: 75 });
    expect(setting.status).toBe(200);
    const read = await attendanceOf(founder, meetingId);
    expect(read.quorum).toEqual({ voting: 5, required: 4, present: 3, quorate: false, rule: "at least 75% of the eligible voters" });
    expect(quorumSentence(read.quorum)).toBe("Not quorate: 3 of 5 voting members present (4 needed)");
  });

  it("is for founders, admins and the meeting's creator: an observer and a member who did not create it get 403", async () => {
    const { founder, members, others, meetingId, startsAt } = await boardMeeting({ others: ["observer", "admin"], scheduler: 0 });
    inMeeting(startsAt);
    const body = { attendees: [{ userId: founder.id, status: "present" }], guests: [] };
    for (const refused of [others[0]!, members[1]!]) {
      const response = await recordAttendance(refused, meetingId, body);
      expect(response.status).toBe(403);
      expect(response.body.message).toBe("Only founders, admins and the meeting's creator can keep the meeting's record");
    }
    expect((await attendanceOf(founder, meetingId)).attendees[0]!.status).toBe("absent");
    // Members[0] scheduled it; an admin and the founder keep any meeting's record.
    for (const keeper of [members[0]!, others[1]!, founder]) expect((await recordAttendance(keeper, meetingId, body)).status).toBe(200);
  });

  it("refuses bad input with the field named, and leaves the old record whole", async () => {
    const { founder, members, member, meetingId, startsAt } = await boardMeeting();
    const uninvited = await member("member", { firstName: "Uma", lastName: "Uninvited" });
    const stranger = (await ctx.board("Stranger Co")).founder;
    inMeeting(startsAt);
    const before = await recorded(founder, meetingId, {
      attendees: [
        { userId: founder.id, status: "present" },
        { userId: members[0]!.id, status: "apologies" },
      ],
      guests: [{ name: "Ada Auditor" }],
      chairId: founder.id,
    });
    const present = (userId: number) => ({ userId, status: "present" });
    const cases: { body: Record<string, unknown>; path: string; message: string }[] = [
      {
        body: { attendees: [present(founder.id), present(uninvited.id)] },
        path: "attendees.1.userId",
        message: "Uma Uninvited was not invited to this meeting",
      },
      { body: { attendees: [present(stranger.id)] }, path: "attendees.0.userId", message: "Not invited to this meeting" },
      {
        body: { attendees: [present(founder.id), present(founder.id)] },
        path: "attendees.1.userId",
        message: "An attendee is recorded twice",
      },
      {
        body: { attendees: [present(founder.id), { userId: members[0]!.id, status: "apologies" }], chairId: members[0]!.id },
        path: "chairId",
        message: "The chair must be an attendee recorded present or present by video",
      },
      {
        body: { attendees: [present(founder.id)], chairId: members[1]!.id },
        path: "chairId",
        message: "The chair must be an attendee recorded present or present by video",
      },
      { body: { attendees: [], guests: [{ name: "Ada\nAuditor" }] }, path: "guests.0.name", message: "Must be a single line" },
      {
        body: { attendees: Array.from({ length: 501 }, (_, index) => present(index + 1)) },
        path: "attendees",
        message: "At most 500 attendees",
      },
    ];
    for (const { body, path, message } of cases) {
      const response = await recordAttendance(founder, meetingId, { guests: [], ...body });
      expect(response.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(response.body.errors).toContainEqual({ path, message });
      expect(await attendanceOf(founder, meetingId)).toEqual(before);
    }
  });

  it("refuses a meeting not yet started, a cancelled one and one whose minutes are approved (409), changing nothing", async () => {
    const { founder, meetingId, startsAt } = await boardMeeting();
    const body = { attendees: [{ userId: founder.id, status: "present" }], guests: [] };
    const early = await recordAttendance(founder, meetingId, body);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe("The meeting has not started yet");

    const cancelled = await boardMeeting();
    const cancel = await request(ctx.app)
      .patch(`/api/meetings/${cancelled.meetingId}`)
      .set("Authorization", cancelled.founder.bearer)
      .send({ status: "cancelled" });
    expect(cancel.status).toBe(200);
    inMeeting(startsAt);
    const refused = await recordAttendance(cancelled.founder, cancelled.meetingId, {
      attendees: [{ userId: cancelled.founder.id, status: "present" }],
      guests: [],
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("The meeting is cancelled: it has no record");

    await ctx.db.insert(meetingMinutes).values({ meetingId, status: "approved", text: "Approved minutes" });
    const approved = await recordAttendance(founder, meetingId, body);
    expect(approved.status).toBe(409);
    expect(approved.body.message).toBe("The minutes are approved: the attendance cannot change");
    expect((await attendanceOf(founder, meetingId)).attendees.every((attendee) => attendee.status === "absent")).toBe(true);
  });
});
