import { and, eq } from "drizzle-orm";
import type { ResolutionDetails } from "../../../../shared/resolutions";
import { auditEvents, meetingMinutes, votes } from "../../db/schema";
import { meetingRecordFixtures } from "../../testing/meeting-record-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { approvedMinutesMessage } from "./minutes.service";

const testStart = "2026-06-01T09:00:00.000Z";
const ctx = useTestContext();
afterEach(() => ctx.clock.set(testStart));

const { api, boardMeeting, inMeeting, recorded, meetingVote, propose } = meetingRecordFixtures(ctx);

const vote = (voter: SignedUp, id: number, choice: string) =>
  api().post(`/api/resolutions/${id}/vote`).set("Authorization", voter.bearer).send({ vote: choice });

async function details(viewer: SignedUp, id: number): Promise<ResolutionDetails> {
  const response = await api().get(`/api/resolutions/${id}`).set("Authorization", viewer.bearer);
  expect(response.status).toBe(200);
  return response.body as ResolutionDetails;
}

const votesOn = (resolutionId: number) => ctx.db.select().from(votes).where(eq(votes.resolutionId, resolutionId));

const meetingVoteAudits = (resolutionId: number) =>
  ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, "resolution.meeting_vote"), eq(auditEvents.targetId, String(resolutionId))));

/**
 * A board of five voters (Fay Founder, Member1..4) and an observer (Other1), all invited to a meeting a day away,
 * and a pending Ordinary resolution; the clock is then in the meeting, where the founder, Member1 (by video),
 * Member2 and the observer attend and Member3 sent apologies. Online votes in `before` are cast first.
 */
async function heldMeeting(
  options: { scheduler?: number; before?: (people: Awaited<ReturnType<typeof boardMeeting>>, id: number) => Promise<void> } = {},
) {
  const board = await boardMeeting({ members: 4, others: ["observer"], scheduler: options.scheduler });
  const { founder, members, others, meetingId, startsAt, creator } = board;
  const resolutionId = await propose(founder);
  await options.before?.(board, resolutionId);
  inMeeting(startsAt);
  await recorded(creator, meetingId, {
    attendees: [
      { userId: founder.id, status: "present" },
      { userId: members[0]!.id, status: "remote" },
      { userId: members[1]!.id, status: "present" },
      { userId: members[2]!.id, status: "apologies" },
      { userId: others[0]!.id, status: "present" },
    ],
    guests: [{ name: "Ada Auditor" }],
  });
  return { ...board, resolutionId };
}

describe("POST /api/resolutions/:id/meeting-vote", () => {
  it("decides at once by the usual rule, counting the hands and the others' online votes; the certificate names the meeting", async () => {
    const { founder, members, others, meetingId, resolutionId } = await heldMeeting({
      before: async ({ members }, id) => expect((await vote(members[3]!, id, "no")).status).toBe(200),
    });
    const response = await meetingVote(founder, resolutionId, {
      meetingId,
      votes: [
        { userId: founder.id, vote: "yes" },
        { userId: members[0]!.id, vote: "yes" },
        { userId: members[1]!.id, vote: "abstain" },
      ],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const decided = response.body as ResolutionDetails;
    expect(decided).toEqual(await details(members[2]!, resolutionId));
    expect(decided.status).toBe("approved");
    const certificate = decided.certificate!;
    // Four of five voted: only closing the vote at once decides it (quorum 3 of 5 met, 2 yes against 1 no).
    expect(certificate).toMatchObject({ yes: 2, no: 1, abstain: 1, meetingId, quorum: { required: 3, present: 4, met: true } });
    expect(certificate.votes.map((cast) => [cast.name, cast.vote])).toEqual([
      ["Member4 Board", "no"],
      ["Fay Founder", "yes"],
      ["Member1 Board", "yes"],
      ["Member2 Board", "abstain"],
    ]);
    expect(certificate.attendance).toEqual([
      { userId: founder.id, name: "Fay Founder", status: "present" },
      { userId: members[0]!.id, name: "Member1 Board", status: "remote" },
      { userId: members[1]!.id, name: "Member2 Board", status: "present" },
      { userId: members[2]!.id, name: "Member3 Board", status: "apologies" },
      { userId: members[3]!.id, name: "Member4 Board", status: "absent" },
      { userId: others[0]!.id, name: "Other1 Person", status: "present" },
    ]);
    expect(certificate.explanation).toBe(
      "Approved: 2 yes, 1 no, 1 abstain of 5 eligible; an Ordinary resolution needs more yes than no votes; quorum 3 of 5 met; by a show of hands in the meeting of 2 Jun 2026, 09:00 UTC",
    );
    expect(decided.explanation).toBe(certificate.explanation);
    expect(await meetingVoteAudits(resolutionId)).toEqual([
      expect.objectContaining({ actorId: founder.id, details: { meetingId, yes: 2, no: 0, abstain: 1 } }),
    ]);

    const again = await meetingVote(founder, resolutionId, { meetingId, votes: [{ userId: members[1]!.id, vote: "no" }] });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("This resolution has already been decided");
    expect((await details(founder, resolutionId)).certificate).toEqual(certificate);
  });

  it("a listed voter's hand replaces their online vote; the meeting's creator (a member) may record it", async () => {
    const { founder, members, meetingId, resolutionId } = await heldMeeting({
      scheduler: 0,
      before: async ({ members }, id) => expect((await vote(members[0]!, id, "no")).status).toBe(200),
    });
    const response = await meetingVote(members[0]!, resolutionId, {
      meetingId,
      votes: [
        { userId: members[0]!.id, vote: "yes" },
        { userId: founder.id, vote: "yes" },
        { userId: members[1]!.id, vote: "no" },
      ],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.certificate).toMatchObject({ yes: 2, no: 1, abstain: 0 });
    const stored = await votesOn(resolutionId);
    expect(stored).toHaveLength(3);
    expect(stored.find((row) => row.userId === members[0]!.id)).toMatchObject({ vote: "yes", comment: null });
  });

  it("refuses voters not recorded present or by video, naming each, and records nothing", async () => {
    const { founder, members, meetingId, resolutionId } = await heldMeeting();
    const response = await meetingVote(founder, resolutionId, {
      meetingId,
      votes: [
        { userId: founder.id, vote: "yes" },
        { userId: members[2]!.id, vote: "yes" },
        { userId: members[3]!.id, vote: "no" },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { path: "votes.1.userId", message: "Member3 Board is not recorded present at the meeting" },
      { path: "votes.2.userId", message: "Member4 Board is not recorded present at the meeting" },
    ]);
    expect(await votesOn(resolutionId)).toEqual([]);
    expect(await meetingVoteAudits(resolutionId)).toEqual([]);
    expect((await details(founder, resolutionId)).status).toBe("pending");
  });

  it("refuses a voter who declared a conflict and an observer, though present", async () => {
    const { founder, members, others, meetingId, resolutionId } = await heldMeeting({
      before: async ({ members }, id) => {
        const declared = await api()
          .post(`/api/resolutions/${id}/conflict`)
          .set("Authorization", members[1]!.bearer)
          .send({ reason: "Supplier" });
        expect(declared.status).toBe(204);
      },
    });
    const recused = await meetingVote(founder, resolutionId, { meetingId, votes: [{ userId: members[1]!.id, vote: "yes" }] });
    expect(recused.status).toBe(400);
    expect(recused.body.errors).toEqual([
      { path: "votes.0.userId", message: "Member2 Board declared a conflict of interest on this resolution" },
    ]);
    const observer = await meetingVote(founder, resolutionId, {
      meetingId,
      votes: [
        { userId: founder.id, vote: "yes" },
        { userId: others[0]!.id, vote: "yes" },
      ],
    });
    expect(observer.status).toBe(400);
    expect(observer.body.errors).toEqual([{ path: "votes.1.userId", message: "Other1 Person is an observer and cannot vote" }]);
    expect(await votesOn(resolutionId)).toEqual([]);
    expect((await details(founder, resolutionId)).status).toBe("pending");
  });

  it("refuses a meeting of another company (400), a member who did not create it (403) and another company's user (404)", async () => {
    const { founder, members, meetingId, resolutionId } = await heldMeeting();
    const elsewhere = await boardMeeting({ members: 1 });
    const hands = { votes: [{ userId: founder.id, vote: "yes" }] };
    for (const otherMeeting of [elsewhere.meetingId, 999_999]) {
      const response = await meetingVote(founder, resolutionId, { meetingId: otherMeeting, ...hands });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ path: "meetingId", message: "The meeting must be a meeting of this resolution's company" }]);
    }
    const member = await meetingVote(members[1]!, resolutionId, { meetingId, ...hands });
    expect(member.status).toBe(403);
    expect(member.body.message).toBe("Only founders, admins and the meeting's creator can keep the meeting's record");
    const stranger = await meetingVote(elsewhere.founder, resolutionId, { meetingId, ...hands });
    expect(stranger.status).toBe(404);
    expect(await votesOn(resolutionId)).toEqual([]);
  });

  it("refuses a meeting whose minutes are approved (409): its record is frozen", async () => {
    const { founder, meetingId, resolutionId } = await heldMeeting();
    await ctx.db.insert(meetingMinutes).values({ meetingId, status: "approved", text: "# Minutes", updatedAt: new Date(testStart) });
    const refused = await meetingVote(founder, resolutionId, { meetingId, votes: [{ userId: founder.id, vote: "yes" }] });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(approvedMinutesMessage);
    expect(await votesOn(resolutionId)).toEqual([]);
  });

  it("refuses a meeting not yet started or cancelled (409)", async () => {
    const { founder, meetingId, startsAt } = await boardMeeting({ members: 1 });
    const resolutionId = await propose(founder);
    const hands = { votes: [{ userId: founder.id, vote: "yes" }] };
    const early = await meetingVote(founder, resolutionId, { meetingId, ...hands });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe("The meeting has not started yet");

    const cancel = await api().patch(`/api/meetings/${meetingId}`).set("Authorization", founder.bearer).send({ status: "cancelled" });
    expect(cancel.status).toBe(200);
    inMeeting(startsAt);
    const cancelled = await meetingVote(founder, resolutionId, { meetingId, ...hands });
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.message).toBe("The meeting is cancelled: it has no record");
    expect(await votesOn(resolutionId)).toEqual([]);
  });
});
