// A show of hands on a resolution at a meeting: each voter must be recorded present at the meeting and allowed to
// vote on the resolution; the hands are recorded and the resolution decided at once, with the meeting's attendance in
// its certificate.
import { eq, sql } from "drizzle-orm";
import type { Attendance } from "../../../../shared/meeting-record";
import { attendingStatuses } from "../../../../shared/meeting-record";
import { displayName } from "../../../../shared/people";
import type { ResolutionDetails, Tally, VoteChoice } from "../../../../shared/resolutions";
import type { CompanyRole } from "../../../../shared/roles";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import type { Transaction } from "../../db/client";
import { meetingMinutes, votes } from "../../db/schema";
import { HttpError, conflict } from "../../http/errors";
import { resolutionDetails } from "../resolutions/resolutions-read.service";
import { decideIfReady, membersAsVoters, type MeetingDecision, type ResolutionRow } from "../resolutions/meeting-decision.service";
import { openResolutionWrite, type Writer } from "../resolutions/open-resolution-write.service";
import { writtenNotVoted } from "../resolutions/vote.service";
import { findRecordedMeeting, readAttendance } from "./attendance.data";
import { refuseRecordOf } from "./attendance.service";
import { settleMinutesApproval } from "./minutes-approval";
import { approvedMinutesMessage } from "./minutes.service";

/** A member of a resolution's company named in a show of hands, and whether they may vote on it now. */
interface HandsVoter {
  userId: number;
  name: string;
  role: CompanyRole;
  mayVote: boolean;
  recused: boolean;
}

/** Which of `userIds` are members of the locked resolution's company, by the rule every tally uses; one query. */
async function votersAmong(tx: Transaction, row: ResolutionRow, userIds: number[]): Promise<Map<number, HandsVoter>> {
  const found = await membersAsVoters(tx, { id: row.id, companyId: row.companyId }, userIds);
  return new Map(
    found.map((voter) => [
      voter.userId,
      {
        userId: voter.userId,
        name: displayName(voter),
        role: voter.role,
        mayVote: Boolean(voter.mayVote),
        recused: Boolean(voter.recused),
      },
    ]),
  );
}

/**
 * Records a show of hands on a locked, open resolution and decides it at once, as at its deadline: each listed
 * voter's hand replaces any vote they cast online; everyone else's online vote stands. The caller has checked that
 * each voter was at the meeting and may vote on it. Answers the decided row.
 */
async function decideByShowOfHands(
  tx: Transaction,
  deps: ServiceDeps<"db" | "clock">,
  row: ResolutionRow,
  actorId: number,
  meeting: MeetingDecision,
  hands: readonly { userId: number; vote: VoteChoice }[],
): Promise<ResolutionRow> {
  const now = deps.clock.now();
  await tx
    .insert(votes)
    .values(
      hands.map((hand) => ({ resolutionId: row.id, userId: hand.userId, vote: hand.vote, comment: null, createdAt: now, updatedAt: now })),
    )
    .onConflictDoUpdate({
      target: [votes.resolutionId, votes.userId],
      set: { vote: sql.raw(`excluded."vote"`), comment: null, updatedAt: now },
    });
  const counts: Tally = { yes: 0, no: 0, abstain: 0 };
  for (const hand of hands) counts[hand.vote] += 1;
  await recordAudit(tx, deps.clock, {
    actorId,
    companyId: row.companyId,
    action: "resolution.meeting_vote",
    targetType: "resolution",
    targetId: row.id,
    details: { meetingId: meeting.meetingId, ...counts },
  });
  const decided = await decideIfReady(tx, deps.clock, row, actorId, undefined, meeting);
  // At least one eligible vote was just cast and the vote is closed: the rules always decide.
  if (decided.status === "pending") throw new Error("a show of hands left the resolution undecided");
  return decided;
}

type Deps = ServiceDeps<"db" | "clock" | "appSecret" | "logger" | "outbound">;

interface Hand {
  userId: number;
  vote: VoteChoice;
}

const invalid = (errors: { path: string; message: string }[]) => new HttpError(400, errors[0]?.message ?? "Invalid vote", {}, errors);

/** Why this voter's hand cannot count, or null when it can: at the meeting first, then allowed to vote on the resolution. */
function refusal(userId: number, attendance: Attendance, voter: HandsVoter | undefined): string | null {
  const attendee = attendance.attendees.find((entry) => entry.userId === userId);
  const name = attendee?.name ?? voter?.name ?? "This voter";
  if (!attendee || !attendingStatuses.includes(attendee.status)) return `${name} is not recorded present at the meeting`;
  if (!voter) return `${name} is no longer a member of the company`;
  if (voter.recused) return `${name} declared a conflict of interest on this resolution`;
  if (!voter.mayVote) return `${name} is an ${voter.role} and cannot vote`;
  return null;
}

/**
 * `POST /api/resolutions/:id/meeting-vote`: under the resolution's row lock (a non-member finds nothing, 404; one
 * already decided is a 409) and a share lock on the meeting's row (its attendance cannot change meanwhile), checks
 * the meeting and every voter, then records the hands and decides, and settles minutes it approves. Answers the
 * resolution as `GET` does.
 */
export async function recordMeetingVote(
  deps: Deps,
  caller: Writer,
  resolutionId: number,
  input: { meetingId: number; votes: Hand[] },
): Promise<ResolutionDetails> {
  await openResolutionWrite(deps, resolutionId, caller, async (tx, row, state) => {
    // A written resolution is decided by each director's signature, never by hands at a meeting.
    if (row.procedure === "written") throw conflict(writtenNotVoted);
    const meeting = await findRecordedMeeting(tx, input.meetingId, "share");
    if (!meeting || meeting.companyId !== row.companyId) {
      const message = "The meeting must be a meeting of this resolution's company";
      throw invalid([{ path: "meetingId", message }]);
    }
    refuseRecordOf(meeting, { userId: caller.userId, role: state.voterRole }, deps.clock.now());
    // Approved minutes are the frozen record of the meeting: no decision is added to it afterwards.
    const [minutes] = await tx
      .select({ status: meetingMinutes.status })
      .from(meetingMinutes)
      .where(eq(meetingMinutes.meetingId, meeting.id));
    if (minutes?.status === "approved") throw conflict(approvedMinutesMessage);
    const attendance = await readAttendance(tx, meeting);
    const voters = await votersAmong(
      tx,
      row,
      input.votes.map((hand) => hand.userId),
    );
    const errors = input.votes.flatMap((hand, index) => {
      const message = refusal(hand.userId, attendance, voters.get(hand.userId));
      return message ? [{ path: `votes.${index}.userId`, message }] : [];
    });
    if (errors.length > 0) throw invalid(errors);
    await decideByShowOfHands(
      tx,
      deps,
      row,
      caller.userId,
      {
        meetingId: meeting.id,
        startsAt: meeting.startsAt,
        attendance: attendance.attendees.map(({ userId, name, status }) => ({ userId, name, status })),
      },
      input.votes,
    );
  });
  // A show of hands is how minutes are usually approved at the next meeting: settle them now. The vote stands
  // whatever happens here; a failure is settled again by the next read of the minutes or the sweep.
  await settleMinutesApproval(deps, { resolutionId }).catch((error: unknown) => {
    deps.logger.warn({ err: error, resolutionId }, "minutes approval could not be settled; the sweep retries");
  });
  return resolutionDetails(deps, resolutionId);
}
