// A show of hands on a resolution in a meeting: who of those named may vote on it, and the votes recorded and the
// resolution decided at once. The meeting's record (its attendance) is checked by its caller.
import { sql } from "drizzle-orm";
import { displayName } from "../../../../shared/people";
import type { Tally, VoteChoice } from "../../../../shared/resolutions";
import type { CompanyRole } from "../../../../shared/roles";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import type { Transaction } from "../../db/client";
import { votes } from "../../db/schema";
import { membersAsVoters } from "./eligible-voters";
import { decideIfReady, type MeetingDecision, type ResolutionRow } from "./resolution-decision";

type Deps = ServiceDeps<"db" | "clock">;

/** A member of a resolution's company named in a show of hands, and whether they may vote on it now. */
export interface HandsVoter {
  userId: number;
  name: string;
  role: CompanyRole;
  mayVote: boolean;
  recused: boolean;
}

/** Which of `userIds` are members of the locked resolution's company, by the rule every tally uses; one query. */
export async function votersAmong(tx: Transaction, row: ResolutionRow, userIds: number[]): Promise<Map<number, HandsVoter>> {
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
export async function decideByShowOfHands(
  tx: Transaction,
  deps: Deps,
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
