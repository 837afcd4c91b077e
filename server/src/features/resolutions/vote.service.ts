// A member's vote on an open resolution: taken in one statement when nothing else is to be done, else under the
// resolution's row lock, where it may decide the resolution.
import { sql } from "drizzle-orm";
import { votingRoles } from "../../../../shared/permissions";
import type { CastVoteInput, Tally, VoteCounts } from "../../../../shared/resolutions";
import type { ServiceDeps } from "../../app-deps";
import { appendAuditValuesSql } from "../../db/audit";
import { builtOnce } from "../../db/prepared";
import { votes } from "../../db/schema";
import { conflict } from "../../http/errors";
import { sessionBounds } from "../../http/session";
import { openResolutionWrite, type Writer } from "./open-resolution-write.service";
import { decideIfReady } from "./resolution-decision";
import { voteCountsOf } from "./vote-poll.service";

type Deps = ServiceDeps<"db" | "clock">;

/** Why a written resolution takes no vote. */
export const writtenNotVoted = "This is a written resolution: each director signs it instead of voting";

/**
 * `POST /api/resolutions/:id/vote`: creates or replaces the caller's vote under the resolution's row lock,
 * so a vote racing the decision is either counted in it or refused (409), never both; then decides the
 * resolution if everyone eligible has now voted. The route has no membership guard: the caller's membership
 * and role are read here, after the lock (a resolution of another company is not found, an observer is refused).
 */
export async function castVote(
  deps: Deps,
  voter: Writer,
  id: number,
  input: CastVoteInput & { comment?: string | null },
): Promise<VoteCounts> {
  const { userId } = voter;
  // Most votes are taken in one call; one that decides the resolution, or is refused, is taken below.
  const { at, idleSince } = sessionBounds(deps.clock.now());
  const [taken] = await voteIfClearStatement(deps.db, {
    id,
    userId,
    sessionId: voter.sessionId,
    idleSince,
    vote: input.vote,
    comment: input.comment ?? null,
    at,
    votingRoles,
  });
  if (taken?.tally) return voteCountsOf(taken.tally, input.vote);
  return openResolutionWrite(deps, id, voter, async (tx, row, state): Promise<VoteCounts> => {
    if (row.procedure === "written") throw conflict(writtenNotVoted);
    // openResolutionWrite let only a voter of the company through: one who still may not vote declared a conflict on it.
    if (!state.mayVote) throw conflict("You declared a conflict of interest on this resolution: withdraw it to vote");
    const now = deps.clock.now();
    const previous = state.ownVote ? { vote: state.ownVote } : undefined;
    // The vote and its audit event in one statement: one round trip less while the resolution's row lock is held
    // and other votes on it wait.
    await voteStatement(tx, {
      id,
      userId,
      vote: input.vote,
      comment: input.comment ?? null,
      at: now,
      companyId: row.companyId,
      action: previous ? "resolution.vote_changed" : "resolution.voted",
      targetId: String(id),
      details: JSON.stringify(previous ? { from: previous.vote, to: input.vote } : { vote: input.vote }),
    });
    // The tally with this vote in it tells whether everyone eligible has now voted.
    const tally = { ...state.tally };
    if (previous) tally[previous.vote] -= 1;
    tally[input.vote] += 1;
    const after = await decideIfReady(tx, deps.clock, row, userId, { tally, eligible: state.eligible });
    // The answer is the counts as this transaction leaves them: the frozen tally if this vote decided it.
    return voteCountsOf(after.certificate ?? tally, input.vote);
  });
}

/**
 * The database's `quorum_vote_if_clear` takes a vote and its audit event in one round trip, outside any transaction of
 * ours, when nothing but the vote is to be done: the resolution is pending and before its deadline, the caller may
 * vote on it, and someone eligible is still to vote after this vote. It answers the tally with the vote, or null when
 * it took nothing: `castVote` then runs the transaction that decides the resolution or gives the refusal, so every
 * refusal and every decision has one source, here in TypeScript. Who may vote and whether the session stands it reads
 * from the database's own definitions, as `mayVote`, `eligibleCount` and `sessionStands` do; the roles passed are no
 * longer read (the signature stays for instances of the app from before migration 0013).
 */
const voteIfClearStatement = builtOnce(
  "quorum_vote_if_clear",
  () =>
    sql<{
      tally: Tally | null;
    }>`select quorum_vote_if_clear(${sql.placeholder("id")}::integer, ${sql.placeholder("userId")}::integer, ${sql.placeholder("sessionId")}::integer, ${sql.placeholder("idleSince")}::timestamptz, ${sql.placeholder("vote")}::text, ${sql.placeholder("comment")}::text, ${sql.placeholder("at")}::timestamptz, ${sql.placeholder("votingRoles")}::text[]) as tally`,
);

/**
 * A vote (created or replaced) and its audit event, in one statement: a data-modifying WITH runs whether or not the
 * rest reads it. Built once: every vote runs it.
 */
const voteStatement = builtOnce("quorum_vote", (q) => {
  const at = sql.placeholder("at");
  const upsert = q
    .insert(votes)
    .values({
      resolutionId: sql.placeholder("id"),
      userId: sql.placeholder("userId"),
      vote: sql.placeholder("vote"),
      comment: sql.placeholder("comment"),
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoUpdate({
      target: [votes.resolutionId, votes.userId],
      set: { vote: sql`excluded.vote`, comment: sql`excluded.comment`, updatedAt: sql`excluded.updated_at` },
    })
    .returning({ id: votes.id });
  return appendAuditValuesSql(
    {
      at,
      actorId: sql.placeholder("userId"),
      companyId: sql.placeholder("companyId"),
      action: sql.placeholder("action"),
      targetType: "resolution",
      targetId: sql.placeholder("targetId"),
      details: sql.placeholder("details"),
      chainKey: sql.placeholder("companyId"),
    },
    sql`cast_vote as ${upsert}`,
  );
});
