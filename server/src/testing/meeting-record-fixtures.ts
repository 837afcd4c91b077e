import request from "supertest";
import type { Attendance, AttendanceInput, MeetingVoteInput } from "../../../shared/meeting-record";
import type { CompanyRole } from "../../../shared/roles";
import { scheduleMeeting, type ScheduledMeetingFields } from "./factories";
import type { SignedUp, TestContext } from "./test-context";

const hourMs = 60 * 60 * 1000;

/** What the fixtures use of a file's test context. */
type RecordContext = Pick<TestContext, "app" | "clock" | "board">;

type Caller = Pick<SignedUp, "bearer">;

/** The requests the meeting record tests make (attendance, a show of hands), bound to a file's test context. */
export function meetingRecordFixtures(ctx: RecordContext) {
  const api = () => request(ctx.app);

  /**
   * A board and a meeting a day from now with all of them as participants: its founder (Fay Founder), `members`
   * members and one person per role in `others`, named in that order. `scheduler` picks who schedules it (an index
   * into the members; the founder by default), so a test can have a member as the meeting's creator.
   */
  async function boardMeeting(
    options: { members?: number; others?: CompanyRole[]; scheduler?: number; fields?: ScheduledMeetingFields } = {},
  ) {
    const { members: count = 3, others: roles = [], scheduler, fields = {} } = options;
    const { founder, company, member } = await ctx.board(`Record ${Math.random().toString(36).slice(2, 8)}`, {
      firstName: "Fay",
      lastName: "Founder",
    });
    const members: SignedUp[] = [];
    for (let index = 0; index < count; index += 1)
      members.push(await member("member", { firstName: `Member${index + 1}`, lastName: "Board" }));
    const others: SignedUp[] = [];
    for (const [index, role] of roles.entries()) others.push(await member(role, { firstName: `Other${index + 1}`, lastName: "Person" }));
    const startsAt = new Date(ctx.clock.now().getTime() + 24 * hourMs);
    const creator = scheduler === undefined ? founder : members[scheduler]!;
    const meetingId = await scheduleMeeting(ctx.app, creator, startsAt, {
      participants: [founder, ...members, ...others].map((person) => person.id),
      ...fields,
    });
    return { founder, company, member, members, others, creator, meetingId, startsAt };
  }

  /** Moves the clock into the meeting: an hour after it started. */
  const inMeeting = (startsAt: Date) => ctx.clock.set(new Date(startsAt.getTime() + hourMs));

  const attendance = (user: Caller, meetingId: number) =>
    api().get(`/api/meetings/${meetingId}/attendance`).set("Authorization", user.bearer);

  const recordAttendance = (user: Caller, meetingId: number, body: AttendanceInput | Record<string, unknown>) =>
    api().put(`/api/meetings/${meetingId}/attendance`).set("Authorization", user.bearer).send(body);

  /** Records the attendance and answers it, throwing with the answer when refused. */
  async function recorded(user: Caller, meetingId: number, body: AttendanceInput): Promise<Attendance> {
    const response = await recordAttendance(user, meetingId, body);
    if (response.status !== 200) throw new Error(`recording attendance failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as Attendance;
  }

  const meetingVote = (user: Caller, resolutionId: number, body: MeetingVoteInput | Record<string, unknown>) =>
    api().post(`/api/resolutions/${resolutionId}/meeting-vote`).set("Authorization", user.bearer).send(body);

  /** A pending resolution of the creator's active company, its deadline a week away; answers its id. */
  async function propose(creator: Caller, fields: Record<string, unknown> = {}): Promise<number> {
    const deadline = new Date(ctx.clock.now().getTime() + 7 * 24 * hourMs).toISOString();
    const response = await api()
      .post("/api/resolutions")
      .set("Authorization", creator.bearer)
      .send({ title: "Approve the FY27 budget", description: "Capex of 2m", type: "Ordinary", deadline, documentIds: [], ...fields });
    if (response.status !== 201) throw new Error(`proposing failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.id as number;
  }

  return { api, boardMeeting, inMeeting, attendance, recordAttendance, recorded, meetingVote, propose };
}
