// A write on an open resolution (a vote, a conflict declared or withdrawn, a show of hands at a meeting) runs under
// the resolution's row lock, after the writer's session, membership and role are read again in the same transaction.
import { eq, sql } from "drizzle-orm";
import { can, deniedMessage } from "../../../../shared/permissions";
import type { Tally, VoteChoice } from "../../../../shared/resolutions";
import type { CompanyRole } from "../../../../shared/roles";
import type { ServiceDeps } from "../../app-deps";
import { builtOnce } from "../../db/prepared";
import type { Transaction } from "../../db/client";
import { companies, memberships, resolutions, sessions } from "../../db/schema";
import { HttpError, conflict, notFound, unauthorized } from "../../http/errors";
import { sessionBounds, sessionStands } from "../../http/session";
import { assertSessionPassedSecondFactor } from "../../http/guards";
import { mayVote } from "./eligible-voters";
import { decideIfReady, eligibleCount, lockResolution, tallyOf, type ResolutionRow } from "./resolution-decision";
import { ownVoteOf } from "./resolutions-read.service";

type Deps = ServiceDeps<"db" | "clock">;

const notPending = "This resolution has already been decided";
const pastDeadline = "The deadline for this resolution has passed";

/** What a write on a locked resolution reads of it first. */
export interface LiveState {
  tally: Tally;
  eligible: number;
  /** The caller's role in the resolution's company (null: not a member), whether they may vote on it, and their vote. */
  voterRole: CompanyRole | null;
  mayVote: boolean;
  ownVote: VoteChoice | null;
  /** The company requires a second factor of its members. */
  requiresSecondFactor: boolean;
  /**
   * The writer's session still stands, whether it passed a second factor, and whether its user has one (which
   * only chooses the refusal's words), as the database says now.
   */
  sessionStands: boolean;
  sessionPassedSecondFactor: boolean;
  hasSecondFactor: boolean;
}

/**
 * Who writes: the user and the session they write with. Each write confirms the session in the database under the
 * resolution's lock, so the route may name the caller from the session cache (a vote reads no session first).
 */
export interface Writer {
  userId: number;
  sessionId: number;
}

export const writerOf = (auth: { user: { id: number }; sessionId: number }): Writer => ({
  userId: auth.user.id,
  sessionId: auth.sessionId,
});

/** The caller's membership of the resolution's company, as the live state reads it. */
interface CallerMembership {
  role: CompanyRole;
  mayVote: boolean;
}

const liveStateStatement = builtOnce("quorum_vote_state", (q) => {
  const caller = sql.placeholder("userId");
  return q
    .select({
      tally: tallyOf,
      eligible: eligibleCount,
      // One lookup of the caller's membership answers both: their role, and whether they may vote on it.
      voter: sql<CallerMembership | null>`${sql`(select json_build_object('role', ${memberships.role}, 'mayVote', ${mayVote({ id: resolutions.id, companyId: resolutions.companyId })}) from ${memberships} where ${memberships.companyId} = ${resolutions.companyId} and ${memberships.userId} = ${caller})`}`,
      ownVote: ownVoteOf(caller),
      requiresSecondFactor: sql<boolean>`(select ${companies.requireSecondFactor} from ${companies} where ${companies.id} = ${resolutions.companyId})`,
      sessionStands: sql<boolean>`${sql`exists (select 1 from ${sessions} where ${sessions.id} = ${sql.placeholder("sessionId")} and ${sessions.userId} = ${caller} and ${sessionStands({ at: sql.placeholder("at"), idleSince: sql.placeholder("idleSince") })})`}`,
      // The session's own second factor: one signed in without it is refused even where the account has one.
      sessionPassedSecondFactor: sql<boolean>`${sql`exists (select 1 from ${sessions} where ${sessions.id} = ${sql.placeholder("sessionId")} and ${sessions.secondFactorAt} is not null)`}`,
      hasSecondFactor: sql<boolean>`(select u.second_factor from users u where u.id = ${caller})`,
    })
    .from(resolutions)
    .where(eq(resolutions.id, sql.placeholder("id")));
});

/**
 * A locked resolution's live tally and the caller's standing on it, in one query. A statement of its own after the
 * lock: it then sees every vote committed before the lock was granted. Named, as the lock is, since every vote runs it.
 */
async function liveState(tx: Transaction, row: ResolutionRow, writer: Writer, now: Date): Promise<LiveState> {
  const [state] = await liveStateStatement(tx, { id: row.id, userId: writer.userId, sessionId: writer.sessionId, ...sessionBounds(now) });
  if (!state) throw notFound();
  return {
    tally: state.tally,
    eligible: Number(state.eligible),
    voterRole: state.voter?.role ?? null,
    mayVote: state.voter?.mayVote === true,
    ownVote: state.ownVote,
    requiresSecondFactor: state.requiresSecondFactor === true,
    sessionStands: state.sessionStands === true,
    hasSecondFactor: state.hasSecondFactor === true,
    sessionPassedSecondFactor: state.sessionPassedSecondFactor === true,
  };
}

/**
 * Runs `work` on the resolution under its row lock, once it is known to be open. A resolution that is due
 * (everyone voted, or the deadline passed) is decided first; the 409 that follows is answered after the
 * transaction commits, so the decision is kept.
 */
export async function openResolutionWrite<T>(
  deps: Deps,
  id: number,
  writer: Writer,
  work: (tx: Transaction, row: ResolutionRow, state: LiveState) => Promise<T>,
): Promise<T> {
  const actorId = writer.userId;
  const result = await deps.db.transaction(async (tx): Promise<{ refused: HttpError } | { value: T }> => {
    const locked = await lockResolution(tx, id, actorId);
    if (!locked) throw notFound();
    const state = await liveState(tx, locked, writer, deps.clock.now());
    // The session may have been revoked since the route read it (from this instance's cache, for a vote).
    if (!state.sessionStands) throw unauthorized();
    // Not a member of the resolution's company: not found, as an id that names nothing (the routes that write
    // through here have no membership guard). The lock already required a membership; this reads it again in the
    // transaction's own view.
    if (state.voterRole === null) throw notFound();
    // As the membership guard of other routes: a session that passed no second factor, where the company requires one.
    assertSessionPassedSecondFactor(state.requiresSecondFactor, {
      passedSecondFactor: state.sessionPassedSecondFactor,
      accountHasSecondFactor: state.hasSecondFactor,
    });
    // Only a voter may write (vote, declare or withdraw a conflict), and is refused before anything is decided.
    if (!can(state.voterRole, "vote")) throw new HttpError(403, deniedMessage("vote"));
    const row = await decideIfReady(tx, deps.clock, locked, actorId, state);
    if (row.status !== "pending") return { refused: conflict(notPending) };
    if (row.deadline.getTime() <= deps.clock.now().getTime()) return { refused: conflict(pastDeadline) };
    return { value: await work(tx, row, state) };
  });
  if ("refused" in result) throw result.refused;
  return result.value;
}
