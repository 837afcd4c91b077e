// A show of hands on a resolution in a meeting: the voters must be recorded at the meeting, and the resolution is
// decided at once with the meeting's attendance in its certificate.
import type { Attendance } from "../../../../shared/meeting-record";
import { attendingStatuses } from "../../../../shared/meeting-record";
import type { ResolutionDetails, VoteChoice } from "../../../../shared/resolutions";
import type { ServiceDeps } from "../../app-deps";
import { eq } from "drizzle-orm";
import { meetingMinutes } from "../../db/schema";
import { HttpError, conflict } from "../../http/errors";
import { resolutionDetails } from "../resolutions/resolutions-read.service";
import {
  decideByShowOfHands,
  openResolutionWrite,
  votersAmong,
  type HandsVoter,
  type Writer,
} from "../resolutions/resolutions-write.service";
import { findRecordedMeeting, readAttendance } from "./attendance.data";
import { refuseRecordOf } from "./attendance.service";
import { settleMinutesApproval } from "./minutes-approval";
import { approvedMinutesMessage } from "./minutes.service";

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
