import { and, asc, eq, lte, or, sql } from "drizzle-orm";
import { displayName } from "../../../../shared/people";
import { decideOutcome, quorumRule, type Certificate, type QuorumPercent, type Tally } from "../../../../shared/resolutions";
import type { ServiceDeps } from "../../app-deps";
import { formatUtc, startSweep, type Clock } from "../../clock";
import type { Transaction } from "../../db/client";
import { builtOnce, preparedPerDatabase } from "../../db/prepared";
import { companies, resolutionRecusals, resolutions, votes } from "../../db/schema";
import { auditDecision, notifyDecided } from "./decision-record";
import { membersAsVoters, resolutionVoteHolders, resolutionVoters } from "./eligible-voters";
import { decideWrittenIfReady, writtenLapsed } from "./written-decision";

type Deps = ServiceDeps<"db" | "clock">;
export type ResolutionRow = typeof resolutions.$inferSelect;

// --- The tally ---

/*
 * Subqueries are built as fragments of their own and embedded: drizzle writes the columns of a single-table select
 * without their table's name, which inside a subquery would name the subquery's own columns.
 */
const liveTally = sql`(select json_build_object('yes', count(*) filter (where ${votes.vote} = 'yes'), 'no', count(*) filter (where ${votes.vote} = 'no'), 'abstain', count(*) filter (where ${votes.vote} = 'abstain')) from ${votes} inner join ${resolutionVoteHolders} on ${resolutionVoteHolders.resolutionId} = ${votes.resolutionId} and ${resolutionVoteHolders.userId} = ${votes.userId} where ${votes.resolutionId} = ${resolutions.id})`;
/** A decided resolution's tally, as its certificate froze it. */
export const frozenTally = sql`json_build_object('yes', (${resolutions.certificate} ->> 'yes')::int, 'no', (${resolutions.certificate} ->> 'no')::int, 'abstain', (${resolutions.certificate} ->> 'abstain')::int)`;

/**
 * The tally in one subquery: of a pending resolution, the votes of those who hold a vote on it only (a departed
 * member's vote no longer counts); of a decided one, its frozen tally.
 */
export const tallyOf = sql<Tally>`case when ${sql`${resolutions.certificate} is not null`} then ${frozenTally} else ${liveTally} end`;

const eligibleVoters = sql`(select count(*) from ${resolutionVoters} where ${resolutionVoters.resolutionId} = ${resolutions.id})`;
/** How many may vote on a pending resolution now (0 once decided). */
export const eligibleCount = sql<number>`case when ${sql`${resolutions.status} = 'pending'`} then ${eligibleVoters} else 0 end`.mapWith(
  Number,
);

/**
 * Whether a pending resolution is due its decision (everyone eligible voted, or the deadline passed with votes),
 * from its live tally: the same rule decideIfReady applies under the row lock, so reads and votes that find nothing
 * due skip the lock and the loading a decision needs. The live tally counts the votes the decision counts, so this
 * never misses a resolution that is due. A written resolution has no votes: it is due here once it lapsed (its
 * signatures decide it under the lock as they arrive).
 */
export function isDue(
  row: { status: ResolutionRow["status"]; procedure: ResolutionRow["procedure"]; type: ResolutionRow["type"]; deadline: Date },
  tally: Tally,
  eligible: number,
  now: Date,
): boolean {
  if (row.status !== "pending") return false;
  if (row.procedure === "written") return writtenLapsed(row, now);
  return decideOutcome({
    type: row.type,
    tally,
    eligible,
    recused: 0,
    deadlinePassed: row.deadline.getTime() <= now.getTime(),
    quorumPercent: null,
  }).decided;
}

// --- Deciding ---

/** A show of hands in a meeting: it closes the vote at once, and the certificate names the meeting and who attended. */
export interface MeetingDecision {
  meetingId: number;
  startsAt: Date;
  attendance: NonNullable<Certificate["attendance"]>;
}

/*
 * The statements of every vote are built once (builtOnce) and run as named prepared statements: Postgres parses and
 * plans each name once per connection instead of on every vote (planning the live state's subqueries cost more
 * than running them).
 */
/**
 * Locks the resolution's row. With `memberId`, only when that user is a member of its company: a caller from
 * another company finds nothing and never holds the lock its voters wait on. (Columns are written out in the
 * subquery: in a one-table select drizzle leaves them unqualified, which the subquery would misread.)
 */
export async function lockResolution(tx: Transaction, id: number, memberId?: number): Promise<ResolutionRow | undefined> {
  const [row] = await lockStatement(tx, { id, memberId: memberId ?? 0 });
  return row;
}

const lockStatement = builtOnce("quorum_resolution_lock", (q) =>
  q
    .select()
    .from(resolutions)
    .where(
      and(
        eq(resolutions.id, sql.placeholder("id")),
        sql`(${sql.placeholder("memberId")} = 0 or exists (select 1 from memberships m where m.company_id = resolutions.company_id and m.user_id = ${sql.placeholder("memberId")}))`,
      ),
    )
    .for("update"),
);

/**
 * Decides a locked, pending resolution when it is due, and stores the outcome with its time and a frozen
 * certificate: who may vote on it (see `resolutionVoters`), who was recused, every counted vote. Notifies every member
 * of the company. Answers the row as it now is. With `meeting`, the vote closes now, as at its deadline.
 */
export async function decideIfReady(
  tx: Transaction,
  clock: Clock,
  row: ResolutionRow,
  actorId: number | null,
  live?: { tally: Tally; eligible: number },
  meeting?: MeetingDecision,
): Promise<ResolutionRow> {
  if (row.status !== "pending") return row;
  const now = clock.now();
  const closed = meeting !== undefined || row.deadline.getTime() <= now.getTime();
  // Told the live tally, a resolution that is not due costs no further query.
  if (live && !isDue(row, live.tally, live.eligible, now)) return row;
  // A written resolution is decided by its signatures, under its own rule (a show of hands never reaches one).
  if (row.procedure === "written") return decideWrittenIfReady(tx, clock, row, actorId);
  const [company] = await tx.select({ quorumPercent: companies.quorumPercent }).from(companies).where(eq(companies.id, row.companyId));
  const members = await membersAsVoters(tx, { id: row.id, companyId: row.companyId });
  const recusalRows = await tx
    .select()
    .from(resolutionRecusals)
    .where(eq(resolutionRecusals.resolutionId, row.id))
    .orderBy(asc(resolutionRecusals.createdAt));
  const voteRows = await tx.select().from(votes).where(eq(votes.resolutionId, row.id)).orderBy(asc(votes.updatedAt), asc(votes.id));

  const eligible = members.filter((member) => member.mayVote);
  const recused = members.filter((member) => member.recused);
  const eligibleById = new Map(eligible.map((member) => [member.userId, member]));
  const counted = voteRows.filter((vote) => eligibleById.has(vote.userId));
  const tally: Tally = { yes: 0, no: 0, abstain: 0 };
  for (const vote of counted) tally[vote.vote] += 1;
  const quorumPercent: QuorumPercent = company?.quorumPercent ?? null;

  const outcome = decideOutcome({
    type: row.type,
    tally,
    eligible: eligible.length,
    recused: recused.length,
    deadlinePassed: closed,
    quorumPercent,
  });
  if (!outcome.decided) return row;
  const explanation = meeting
    ? `${outcome.explanation}; by a show of hands in the meeting of ${formatUtc(meeting.startsAt)}`
    : outcome.explanation;

  const reasons = new Map(recusalRows.map((recusal) => [recusal.userId, recusal.reason]));
  const certificate: Certificate = {
    decidedAt: now.toISOString(),
    outcome: outcome.outcome,
    rule: outcome.rule,
    quorum: { ...outcome.quorum, rule: quorumRule(quorumPercent) },
    eligible: eligible.map((member) => ({ userId: member.userId, name: displayName(member), role: member.role })),
    recused: recused.map((member) => ({ userId: member.userId, name: displayName(member), reason: reasons.get(member.userId) ?? "" })),
    votes: counted.map((vote) => ({
      userId: vote.userId,
      name: displayName(eligibleById.get(vote.userId)!),
      vote: vote.vote,
      comment: vote.comment,
      castAt: vote.updatedAt.toISOString(),
    })),
    ...tally,
    explanation,
    ...(meeting ? { meetingId: meeting.meetingId, attendance: meeting.attendance } : {}),
  };
  const [updated] = await tx
    .update(resolutions)
    .set({ status: outcome.outcome, decidedAt: now, explanation, certificate })
    .where(eq(resolutions.id, row.id))
    .returning();
  await auditDecision(tx, clock, actorId, row, {
    outcome: outcome.outcome,
    ...tally,
    eligible: eligible.length,
    recused: recused.length,
    ...(meeting ? { meetingId: meeting.meetingId } : {}),
  });
  await notifyDecided(tx, row, { outcome: outcome.outcome, explanation, at: now }, members);
  return updated ?? row;
}

/** Decides the resolution under its row lock when it is due (everyone voted, or its deadline passed). */
export async function decideOnRead(deps: Deps, id: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await lockResolution(tx, id);
    if (row) await decideIfReady(tx, deps.clock, row, null);
  });
}

// --- The deciding jobs ---

/** A company's resolutions due a decision by their deadline: the query every list of resolutions starts with. */
const companyDueQuery = preparedPerDatabase((db) =>
  db
    .select({ id: resolutions.id })
    .from(resolutions)
    .where(
      and(
        eq(resolutions.status, "pending"),
        lte(resolutions.deadline, sql.placeholder("now")),
        eq(resolutions.companyId, sql.placeholder("companyId")),
        sql`${resolutions.decidedAt} is null`,
      ),
    )
    .prepare("quorum_resolutions_due"),
);

/**
 * Decides every pending resolution of a company (or of all companies) whose deadline has passed, each in
 * its own transaction under its row lock. With none due this is one query, so lists stay a fixed number.
 */
export async function decideDue(deps: Deps, companyId?: number): Promise<number> {
  const now = deps.clock.now();
  // The sweep also looks at every pending written resolution: one whose rule a departure or a change of role has met
  // (no signature, withdrawal or recusal to decide it) is decided within a sweep, not left to its lapse.
  const due =
    companyId == null
      ? await deps.db
          .select({ id: resolutions.id })
          .from(resolutions)
          .where(
            and(
              eq(resolutions.status, "pending"),
              or(lte(resolutions.deadline, now), eq(resolutions.procedure, "written")),
              sql`${resolutions.decidedAt} is null`,
            ),
          )
      : await companyDueQuery(deps.db).execute({ companyId, now });
  let decided = 0;
  for (const { id } of due) {
    const status = await deps.db.transaction(async (tx) => {
      const row = await lockResolution(tx, id);
      return row ? (await decideIfReady(tx, deps.clock, row, null)).status : "pending";
    });
    if (status !== "pending") decided += 1;
  }
  return decided;
}

/** Decides resolutions whose deadline passed, every `intervalMs`, so lists, the dashboard and notifications are right without a read. */
export function startResolutionSweep(deps: Deps & ServiceDeps<"logger">, intervalMs = 60_000): { stop: () => void } {
  return startSweep(deps.logger, intervalMs, () => decideDue(deps), {
    handled: "resolutions decided at their deadline",
    failed: "resolution sweep failed",
  });
}
