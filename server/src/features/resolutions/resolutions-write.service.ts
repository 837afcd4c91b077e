import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { can, deniedMessage, votingRoles } from "../../../../shared/permissions";
import { displayName } from "../../../../shared/people";
import { meetingCategory } from "../../../../shared/meeting-model";
import {
  quorumRule,
  type CastVoteInput,
  type QuorumPercent,
  type Resolution,
  type Tally,
  type VoteChoice,
  type VoteCounts,
} from "../../../../shared/resolutions";
import type { CompanyRole } from "../../../../shared/roles";
import type { ServiceDeps } from "../../app-deps";
import { appendAuditValuesSql, recordAudit } from "../../db/audit";
import { builtOnce } from "../../db/prepared";
import type { Transaction } from "../../db/client";
import { companies, documents, memberships, resolutionDocuments, resolutionRecusals, resolutions, sessions, votes } from "../../db/schema";
import { HttpError, conflict, notFound, unauthorized } from "../../http/errors";
import { sessionBounds, sessionStands } from "../../http/session";
import { assertSessionPassedSecondFactor } from "../../http/guards";
import type { TenantContext } from "../../http/request-context";
import { notADraftMeeting } from "../meetings/meetings.service";
import { notify } from "../notifications/notifications.service";
import { mayVote } from "./eligible-voters";
import { decideIfReady, eligibleCount, lockResolution, tallyOf, type ResolutionRow } from "./resolution-decision";
import { ownVoteOf, resolutionRow, toResolution, voteCountsOf } from "./resolutions-read.service";

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

/** `POST /api/resolutions`: always pending, a deadline in the future, documents of the company; notifies the other voters. */
export async function createResolution(
  deps: Deps,
  tenant: TenantContext,
  input: { title: string; description: string; type: ResolutionRow["type"]; deadline: Date; documentIds: number[] },
): Promise<Resolution> {
  const now = deps.clock.now();
  if (input.deadline.getTime() <= now.getTime()) {
    throw new HttpError(400, "The deadline must be in the future", {}, [
      { path: "deadline", message: "The deadline must be in the future" },
    ]);
  }
  const companyId = tenant.company.id;
  const id = await deps.db.transaction(async (tx) => {
    if (input.documentIds.length > 0) {
      const found = await tx
        .select({ id: documents.id })
        .from(documents)
        .where(
          and(
            inArray(documents.id, input.documentIds),
            eq(documents.companyId, companyId),
            ne(documents.category, meetingCategory),
            notADraftMeeting(documents.id),
          ),
        );
      if (found.length !== input.documentIds.length) {
        const message = "Documents must be documents of this company";
        throw new HttpError(400, message, {}, [{ path: "documentIds", message }]);
      }
    }
    const [created] = await tx
      .insert(resolutions)
      .values({
        companyId,
        title: input.title,
        description: input.description,
        type: input.type,
        status: "pending",
        deadline: input.deadline,
        createdBy: tenant.user.id,
        createdAt: now,
      })
      .returning({ id: resolutions.id });
    if (!created) throw new Error("resolution insert returned nothing");
    if (input.documentIds.length > 0) {
      await tx.insert(resolutionDocuments).values(input.documentIds.map((documentId) => ({ resolutionId: created.id, documentId })));
    }
    await recordAudit(tx, deps.clock, {
      actorId: tenant.user.id,
      companyId,
      action: "resolution.created",
      targetType: "resolution",
      targetId: created.id,
      details: { type: input.type, deadline: input.deadline.toISOString(), documentIds: input.documentIds },
    });
    const voters = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(mayVote({ id: created.id, companyId }), ne(memberships.userId, tenant.user.id)));
    await notify(tx, {
      kind: "resolutionCreated",
      companyId,
      recipients: voters.map(({ userId }) => userId),
      title: `New resolution: ${input.title}`,
      body: `${displayName(tenant.user)} asks for your vote (${input.type}) by ${input.deadline.toISOString().slice(0, 10)}.`,
      link: `/resolutions/${created.id}`,
      at: deps.clock.now(),
    });
    return created.id;
  });
  return toResolution(await resolutionRow(deps.db, id));
}

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

/** `POST /api/resolutions/:id/conflict`: the caller's vote is withdrawn and they leave the denominator. */
export async function declareConflict(deps: Deps, writer: Writer, id: number, reason: string): Promise<void> {
  const { userId } = writer;
  await openResolutionWrite(deps, id, writer, async (tx, row) => {
    const withdrawn = await tx
      .delete(votes)
      .where(and(eq(votes.resolutionId, id), eq(votes.userId, userId)))
      .returning({ vote: votes.vote });
    await tx
      .insert(resolutionRecusals)
      .values({ resolutionId: id, userId, reason, createdAt: deps.clock.now() })
      .onConflictDoUpdate({ target: [resolutionRecusals.resolutionId, resolutionRecusals.userId], set: { reason } });
    await recordAudit(tx, deps.clock, {
      actorId: userId,
      companyId: row.companyId,
      action: "resolution.conflict_declared",
      targetType: "resolution",
      targetId: id,
      details: { withdrawnVote: withdrawn[0]?.vote ?? null },
    });
    // Leaving the denominator may leave everyone else having voted.
    await decideIfReady(tx, deps.clock, row, userId);
  });
}

/** `DELETE /api/resolutions/:id/conflict`: withdraws the caller's declaration while the resolution is open. */
export async function withdrawConflict(deps: Deps, writer: Writer, id: number): Promise<void> {
  const { userId } = writer;
  await openResolutionWrite(deps, id, writer, async (tx, row) => {
    const removed = await tx
      .delete(resolutionRecusals)
      .where(and(eq(resolutionRecusals.resolutionId, id), eq(resolutionRecusals.userId, userId)))
      .returning({ userId: resolutionRecusals.userId });
    // Withdrawing a declaration one never made changes nothing (a repeated DELETE is harmless).
    if (removed.length === 0) return;
    await recordAudit(tx, deps.clock, {
      actorId: userId,
      companyId: row.companyId,
      action: "resolution.conflict_withdrawn",
      targetType: "resolution",
      targetId: id,
    });
  });
}

// --- A show of hands in a meeting (what the meeting's record needs of resolutions) ---

// What a show of hands at a meeting needs to decide a resolution under the same rules as an online vote.
export { decideIfReady, type MeetingDecision, type ResolutionRow } from "./resolution-decision";
export { membersAsVoters } from "./eligible-voters";

// --- Quorum setting ---

export async function updateQuorumSetting(
  deps: Deps,
  tenant: TenantContext,
  quorumPercent: QuorumPercent,
): Promise<{ quorumPercent: QuorumPercent; rule: string }> {
  await deps.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ quorumPercent: companies.quorumPercent })
      .from(companies)
      .where(eq(companies.id, tenant.company.id))
      .for("update");
    await tx.update(companies).set({ quorumPercent }).where(eq(companies.id, tenant.company.id));
    await recordAudit(tx, deps.clock, {
      actorId: tenant.user.id,
      companyId: tenant.company.id,
      action: "company.quorum_changed",
      targetType: "company",
      targetId: tenant.company.id,
      details: { from: before?.quorumPercent ?? null, to: quorumPercent },
    });
  });
  return { quorumPercent, rule: quorumRule(quorumPercent) };
}
