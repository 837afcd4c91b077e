// The vote poll every open resolution screen makes: the counts and the reader's own vote, read in one query and kept
// by the poll cache until they change.
import type { Tally, VoteChoice, VoteCounts } from "../../../../shared/resolutions";
import type { ServiceDeps } from "../../app-deps";
import { isDue } from "./resolution-decision";
import { currentResolution, readResolution, type ResolutionRead } from "./resolutions-read.service";
import type { VotePollCache } from "./vote-poll-cache";

type Deps = ServiceDeps<"db" | "clock">;

/** What the poll needs of a resolution: its company, whether it is due, the counts and the reader's own vote. */
export type VotePollRead = Pick<
  ResolutionRead,
  "id" | "companyId" | "status" | "procedure" | "type" | "deadline" | "tally" | "eligible" | "ownVote"
>;

/**
 * The vote poll in one query: the guard's company lookup reads the whole poll answer with it (the resolution's
 * company, tally and the caller's vote), and the route answers it only once the caller's membership is checked.
 */
export async function readVotePoll(
  { db, clock }: ServiceDeps<"db" | "clock">,
  id: number,
  userId: number,
  cache?: VotePollCache<VotePollRead>,
): Promise<VotePollRead | undefined> {
  const now = clock.now().getTime();
  const cached = cache?.lookup(id, userId, now);
  if (cached) return cached;
  // Taken before the read: a change heard while it ran means what was read may be stale.
  const epoch = cache?.epoch() ?? 0;
  const read = await readResolution(db, id, userId);
  if (!read) return undefined;
  // Kept without its texts: a poll shows none of them.
  const { companyId, status, procedure, type, deadline, tally, eligible, ownVote } = read;
  const poll: VotePollRead = { id, companyId, status, procedure, type, deadline, tally, eligible, ownVote };
  cache?.remember(id, userId, poll, now, epoch);
  return poll;
}

/** `GET /api/resolutions/:id/votes`: the poll every open resolution screen makes, from `read` when the guard made it. */
export async function voteCounts(deps: Deps, id: number, userId: number, read?: VotePollRead): Promise<VoteCounts> {
  const given = read && read.id === id ? read : undefined;
  // A resolution that is due is decided first (as any read of it does), and read again.
  const row = given && !isDue(given, given.tally, given.eligible, deps.clock.now()) ? given : await currentResolution(deps, id, userId);
  return voteCountsOf(row.tally, row.ownVote);
}

/** The counts a poll and a vote answer: a tally (as the database gives it), its total, and the reader's own vote. */
export function voteCountsOf(tally: Tally, userVote: VoteChoice | null): VoteCounts {
  const yes = Number(tally.yes);
  const no = Number(tally.no);
  const abstain = Number(tally.abstain);
  return { yes, no, abstain, total: yes + no + abstain, userVote };
}
