import { and, asc, desc, eq, gt, inArray, lte, ne, sql, type Placeholder } from "drizzle-orm";
import { can, deniedMessage, votingRoles } from "../../../../shared/permissions";
import { displayName } from "../../../../shared/people";
import { meetingCategory } from "../../../../shared/meeting-model";
import {
  decideOutcome,
  quorumRule,
  type Certificate,
  type CastVoteInput,
  type PendingResolutionSummary,
  type QuorumPercent,
  type Resolution,
  type ResolutionDetails,
  type Tally,
  type VoteChoice,
  type VoteCounts,
} from "../../../../shared/resolutions";
import type { CompanyRole } from "../../../../shared/roles";
import type { ServiceDeps } from "../../app-deps";
import type { Clock } from "../../clock";
import { auditRow, recordAudit } from "../../db/audit";
import type { Database, Transaction } from "../../db/client";
import { preparedPerDatabase } from "../../db/prepared";
import {
  auditEvents,
  companies,
  documentFiles,
  documents,
  memberships,
  resolutionDocuments,
  resolutionRecusals,
  resolutions,
  users,
  votes,
} from "../../db/schema";
import { HttpError, conflict, notFound } from "../../http/errors";
import type { TenantContext } from "../../http/request-context";
import { notify } from "../account/notifications.service";
import { notADraftMeeting } from "../meetings/meetings.service";

type Deps = ServiceDeps<"db" | "clock">;
type ResolutionRow = typeof resolutions.$inferSelect;

const notPending = "This resolution has already been decided";
const pastDeadline = "The deadline for this resolution has passed";

// --- Reading ---

/** The roles that vote, as SQL, for the subqueries below. */
const votingRolesSql = sql.raw(votingRoles.map((role) => `'${role}'`).join(", "));

/*
 * Subqueries are built as fragments of their own and embedded: drizzle writes the columns of a single-table select
 * without their table's name, which inside a subquery would name the subquery's own columns.
 */
const liveTally = sql`(select json_build_object('yes', count(*) filter (where ${votes.vote} = 'yes'), 'no', count(*) filter (where ${votes.vote} = 'no'), 'abstain', count(*) filter (where ${votes.vote} = 'abstain')) from ${votes} inner join ${memberships} on ${memberships.userId} = ${votes.userId} and ${memberships.companyId} = ${resolutions.companyId} and ${memberships.role} in (${votingRolesSql}) where ${votes.resolutionId} = ${resolutions.id})`;
const frozenTally = sql`json_build_object('yes', (${resolutions.certificate} ->> 'yes')::int, 'no', (${resolutions.certificate} ->> 'no')::int, 'abstain', (${resolutions.certificate} ->> 'abstain')::int)`;

/**
 * The tally in one subquery: of a pending resolution, the votes of its eligible voters only (a departed member's
 * vote no longer counts); of a decided one, its frozen tally.
 */
const tallyOf = sql<Tally>`case when ${sql`${resolutions.certificate} is not null`} then ${frozenTally} else ${liveTally} end`;

const eligibleVoters = sql`(select count(*) from ${memberships} where ${memberships.companyId} = ${resolutions.companyId} and ${memberships.role} in (${votingRolesSql}) and not exists (select 1 from ${resolutionRecusals} where ${resolutionRecusals.resolutionId} = ${resolutions.id} and ${resolutionRecusals.userId} = ${memberships.userId}))`;
/** How many may vote on a pending resolution now: its company's voters, less those who declared a conflict (0 once decided). */
const eligibleCount = sql<number>`case when ${sql`${resolutions.status} = 'pending'`} then ${eligibleVoters} else 0 end`.mapWith(Number);

/** The caller's own vote on the resolution, as a subquery. */
const ownVoteOf = (userId: number | Placeholder) =>
  sql<VoteChoice | null>`${sql`(select ${votes.vote} from ${votes} where ${votes.resolutionId} = ${resolutions.id} and ${votes.userId} = ${userId})`}`;

/**
 * Whether a pending resolution is due its decision (everyone eligible voted, or the deadline passed with votes),
 * from its live tally: the same rule decideIfReady applies under the row lock, so reads and votes that find nothing
 * due skip the lock and the loading a decision needs. The live tally never counts fewer votes than the decision
 * does, so this never misses a resolution that is due.
 */
function isDue(
  row: { status: ResolutionRow["status"]; type: ResolutionRow["type"]; deadline: Date },
  tally: Tally,
  eligible: number,
  now: Date,
): boolean {
  if (row.status !== "pending") return false;
  return decideOutcome({
    type: row.type,
    tally,
    eligible,
    recused: 0,
    deadlinePassed: row.deadline.getTime() <= now.getTime(),
    quorumPercent: null,
  }).decided;
}

const listColumns = {
  id: resolutions.id,
  title: resolutions.title,
  description: resolutions.description,
  type: resolutions.type,
  deadline: resolutions.deadline,
  status: resolutions.status,
  createdAt: resolutions.createdAt,
  createdBy: resolutions.createdBy,
  decidedAt: resolutions.decidedAt,
  explanation: resolutions.explanation,
  documentIds: sql<
    number[]
  >`coalesce((select json_agg(${resolutionDocuments.documentId} order by ${resolutionDocuments.documentId}) from ${resolutionDocuments} where ${resolutionDocuments.resolutionId} = ${resolutions.id}), '[]'::json)`,
  tally: tallyOf,
};

interface ListRow {
  id: number;
  title: string;
  description: string;
  type: ResolutionRow["type"];
  deadline: Date;
  status: ResolutionRow["status"];
  createdAt: Date;
  createdBy: number | null;
  decidedAt: Date | null;
  explanation: string | null;
  documentIds: number[];
  tally: Tally;
}

function toResolution(row: ListRow): Resolution {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    type: row.type,
    deadline: row.deadline.toISOString(),
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    explanation: row.explanation,
    documentIds: row.documentIds.map(Number),
    voteCounts: { yes: Number(row.tally.yes), no: Number(row.tally.no), abstain: Number(row.tally.abstain) },
  };
}

const companyOfQuery = preparedPerDatabase((db) =>
  db
    .select({ companyId: resolutions.companyId })
    .from(resolutions)
    .where(eq(resolutions.id, sql.placeholder("id")))
    .prepare("quorum_resolution_company"),
);

/** The company a resolution belongs to, for the thing guard; null when there is none. */
export async function resolutionCompanyOf({ db }: ServiceDeps<"db">, id: number): Promise<number | null> {
  const [row] = await companyOfQuery(db).execute({ id });
  return row?.companyId ?? null;
}

/**
 * Decides every pending resolution of a company (or of all companies) whose deadline has passed, each in
 * its own transaction under its row lock. With none due this is one query, so lists stay a fixed number.
 */
export async function decideDue(deps: Deps, companyId?: number): Promise<number> {
  const now = deps.clock.now();
  const due =
    companyId == null
      ? await deps.db
          .select({ id: resolutions.id })
          .from(resolutions)
          .where(and(eq(resolutions.status, "pending"), lte(resolutions.deadline, now), sql`${resolutions.decidedAt} is null`))
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
 * The list's live tallies in one pass: the company's votes by its current voters, grouped by resolution. The same
 * count as `liveTally` (which the poll and a vote use for one resolution), without a subquery per row: on a list of
 * 30 resolutions that was most of the list's time in Postgres.
 */
function companyTallies(db: Database, companyId: Placeholder) {
  const counted = (choice: VoteChoice) => sql<number>`count(*) filter (where ${votes.vote} = ${sql.raw(`'${choice}'`)})`;
  return db
    .select({
      resolutionId: votes.resolutionId,
      yes: counted("yes").as("yes"),
      no: counted("no").as("no"),
      abstain: counted("abstain").as("abstain"),
    })
    .from(votes)
    .innerJoin(resolutions, and(eq(resolutions.id, votes.resolutionId), eq(resolutions.companyId, companyId)))
    .innerJoin(
      memberships,
      and(eq(memberships.userId, votes.userId), eq(memberships.companyId, companyId), inArray(memberships.role, votingRoles)),
    )
    .groupBy(votes.resolutionId)
    .as("list_tallies");
}

const listQuery = preparedPerDatabase((db) => {
  const tallies = companyTallies(db, sql.placeholder("companyId"));
  const listTally = sql<Tally>`case when ${resolutions.certificate} is not null then ${frozenTally} else json_build_object('yes', coalesce(${tallies.yes}, 0), 'no', coalesce(${tallies.no}, 0), 'abstain', coalesce(${tallies.abstain}, 0)) end`;
  return db
    .select({ ...listColumns, tally: listTally })
    .from(resolutions)
    .leftJoin(tallies, eq(tallies.resolutionId, resolutions.id))
    .where(eq(resolutions.companyId, sql.placeholder("companyId")))
    .orderBy(desc(resolutions.createdAt), desc(resolutions.id))
    .prepare("quorum_resolutions_list");
});

/** `GET /api/companies/:companyId/resolutions`: newest first, with vote counts, in a fixed number of queries. */
export async function listResolutions(deps: Deps, companyId: number): Promise<Resolution[]> {
  let rows = await listQuery(deps.db).execute({ companyId });
  // The list itself shows whether one is due by its deadline (pending, past it, with votes): only then are those
  // decided, under their locks, and the list read again.
  const now = deps.clock.now();
  if (rows.some((row) => isDue(row, row.tally, Number.MAX_SAFE_INTEGER, now))) {
    await decideDue(deps, companyId);
    rows = await listQuery(deps.db).execute({ companyId });
  }
  return rows.map(toResolution);
}

/** `GET /api/companies/:companyId/resolutions/pending`: pending and not past the deadline, soonest deadline first. */
export async function pendingResolutions(deps: Deps, companyId: number): Promise<PendingResolutionSummary[]> {
  await decideDue(deps, companyId);
  const rows = await deps.db
    .select({ id: resolutions.id, title: resolutions.title, createdAt: resolutions.createdAt, deadline: resolutions.deadline })
    .from(resolutions)
    .where(and(eq(resolutions.companyId, companyId), eq(resolutions.status, "pending"), gt(resolutions.deadline, deps.clock.now())))
    .orderBy(asc(resolutions.deadline), asc(resolutions.id));
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    createdAt: row.createdAt.toISOString(),
    deadline: row.deadline.toISOString(),
  }));
}

/** Decides the resolution under its row lock when it is due (everyone voted, or its deadline passed). */
async function decideOnRead(deps: Deps, id: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await lockResolution(tx, id);
    if (row) await decideIfReady(tx, deps.clock, row, null);
  });
}

/** One query: the resolution with its tally, how many may vote, and the caller's own vote (the vote poll's). */
const readQuery = preparedPerDatabase((db) =>
  db
    .select({ ...listColumns, companyId: resolutions.companyId, eligible: eligibleCount, ownVote: ownVoteOf(sql.placeholder("userId")) })
    .from(resolutions)
    .where(eq(resolutions.id, sql.placeholder("id")))
    .prepare("quorum_resolution_read"),
);

type ResolutionRead = ListRow & { companyId: number; eligible: number; ownVote: VoteChoice | null };

async function readResolution(db: Database, id: number, userId?: number): Promise<ResolutionRead | undefined> {
  // No caller: user id 0 is nobody's, so no vote.
  const [row] = await readQuery(db).execute({ id, userId: userId ?? 0 });
  return row;
}

/** The resolution as a reader should see it: decided first when it is due, which the one read tells. */
async function currentResolution(deps: Deps, id: number, userId?: number, read?: ResolutionRead): Promise<ResolutionRead> {
  const row = read ?? (await readResolution(deps.db, id, userId));
  if (!row) throw notFound();
  if (!isDue(row, row.tally, row.eligible, deps.clock.now())) return row;
  await decideOnRead(deps, id);
  const decided = await readResolution(deps.db, id, userId);
  if (!decided) throw notFound();
  return decided;
}

async function resolutionRow(db: Database, id: number): Promise<ListRow> {
  const row = await readResolution(db, id);
  if (!row) throw notFound();
  return row;
}

/**
 * The vote poll in one query: the guard's company lookup reads the whole poll answer with it (the resolution's
 * company, tally and the caller's vote), and the route answers it only once the caller's membership is checked.
 */
export async function readVotePoll({ db }: ServiceDeps<"db">, id: number, userId: number): Promise<ResolutionRead | undefined> {
  return readResolution(db, id, userId);
}

/** `GET /api/resolutions/:id/votes`: the poll every open resolution screen makes, from `read` when the guard made it. */
export async function voteCounts(deps: Deps, id: number, userId: number, read?: ResolutionRead): Promise<VoteCounts> {
  const row = await currentResolution(deps, id, userId, read && read.id === id ? read : undefined);
  const { yes, no, abstain } = toResolution(row).voteCounts;
  return { yes, no, abstain, total: yes + no + abstain, userVote: row.ownVote };
}

/** `GET /api/resolutions/:id`: the resolution, its documents, who has voted (never their choices while pending), the certificate once decided. */
export async function resolutionDetails(deps: Deps, id: number): Promise<ResolutionDetails> {
  const row = await currentResolution(deps, id);
  const [attached, voterRows, recusalRows] = [
    await deps.db
      .select({
        id: documents.id,
        name: documents.name,
        fileType: documents.fileType,
        hasFile: sql<boolean>`${documentFiles.documentId} is not null`,
      })
      .from(resolutionDocuments)
      .innerJoin(documents, eq(documents.id, resolutionDocuments.documentId))
      .leftJoin(documentFiles, eq(documentFiles.documentId, documents.id))
      .where(eq(resolutionDocuments.resolutionId, id))
      .orderBy(asc(documents.name), asc(documents.id)),
    await deps.db
      .select({ userId: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username })
      .from(votes)
      .innerJoin(users, eq(users.id, votes.userId))
      .where(eq(votes.resolutionId, id))
      .orderBy(asc(votes.createdAt), asc(votes.id)),
    await deps.db
      .select({
        userId: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        username: users.username,
        reason: resolutionRecusals.reason,
      })
      .from(resolutionRecusals)
      .innerJoin(users, eq(users.id, resolutionRecusals.userId))
      .where(eq(resolutionRecusals.resolutionId, id))
      .orderBy(asc(resolutionRecusals.createdAt)),
  ];
  const [stored] = await deps.db.select({ certificate: resolutions.certificate }).from(resolutions).where(eq(resolutions.id, id));
  const certificate = stored?.certificate ?? null;
  return {
    ...toResolution(row),
    documents: attached.map((doc) => ({ ...doc, hasFile: Boolean(doc.hasFile) })),
    voters: certificate
      ? certificate.votes.map(({ userId, name }) => ({ userId, name }))
      : voterRows.map((voter) => ({ userId: voter.userId, name: displayName(voter) })),
    recusals: certificate
      ? certificate.recused
      : recusalRows.map((recusal) => ({ userId: recusal.userId, name: displayName(recusal), reason: recusal.reason })),
    certificate,
  };
}

// --- Writing ---

/*
 * The statements of every vote are named (prepared) statements: a transaction's queries are built on its own
 * connection, so drizzle builds them again each time, but Postgres parses and plans each name once per
 * connection instead of on every vote (planning the live state's subqueries cost more than running them).
 */
/**
 * Locks the resolution's row. With `memberId`, only when that user is a member of its company: a caller from
 * another company finds nothing and never holds the lock its voters wait on. (Columns are written out in the
 * subquery: in a one-table select drizzle leaves them unqualified, which the subquery would misread.)
 */
async function lockResolution(tx: Transaction, id: number, memberId?: number): Promise<ResolutionRow | undefined> {
  const [row] = await tx
    .select()
    .from(resolutions)
    .where(
      and(
        eq(resolutions.id, sql.placeholder("id")),
        sql`(${sql.placeholder("memberId")} = 0 or exists (select 1 from memberships m where m.company_id = resolutions.company_id and m.user_id = ${sql.placeholder("memberId")}))`,
      ),
    )
    .for("update")
    .prepare("quorum_resolution_lock")
    .execute({ id, memberId: memberId ?? 0 });
  return row;
}

interface LiveState {
  tally: Tally;
  eligible: number;
  /** The caller's role in the resolution's company (null: not a member), whether they declared a conflict, and their vote. */
  voterRole: CompanyRole | null;
  recused: boolean;
  ownVote: VoteChoice | null;
}

/**
 * A locked resolution's live tally and the caller's standing on it, in one query. A statement of its own after the
 * lock: it then sees every vote committed before the lock was granted.
 */
async function liveState(tx: Transaction, row: ResolutionRow, userId: number): Promise<LiveState> {
  const caller = sql.placeholder("userId");
  const [state] = await tx
    .select({
      tally: tallyOf,
      eligible: eligibleCount,
      voterRole: sql<CompanyRole | null>`${sql`(select ${memberships.role} from ${memberships} where ${memberships.companyId} = ${resolutions.companyId} and ${memberships.userId} = ${caller})`}`,
      recused: sql<boolean>`${sql`exists (select 1 from ${resolutionRecusals} where ${resolutionRecusals.resolutionId} = ${resolutions.id} and ${resolutionRecusals.userId} = ${caller})`}`,
      ownVote: ownVoteOf(caller),
    })
    .from(resolutions)
    .where(eq(resolutions.id, sql.placeholder("id")))
    .prepare("quorum_vote_state")
    .execute({ id: row.id, userId });
  if (!state) throw notFound();
  return { ...state, eligible: Number(state.eligible), recused: Boolean(state.recused) };
}

/**
 * Decides a locked, pending resolution when it is due, and stores the outcome with its time and a frozen
 * certificate: who was eligible (founders, admins and members now), who was recused, every counted vote.
 * Notifies every member of the company. Answers the row as it now is.
 */
async function decideIfReady(
  tx: Transaction,
  clock: Clock,
  row: ResolutionRow,
  actorId: number | null,
  live?: { tally: Tally; eligible: number },
): Promise<ResolutionRow> {
  if (row.status !== "pending") return row;
  const now = clock.now();
  // Told the live tally, a resolution that is not due costs no further query.
  if (live && !isDue(row, live.tally, live.eligible, now)) return row;
  const [company] = await tx.select({ quorumPercent: companies.quorumPercent }).from(companies).where(eq(companies.id, row.companyId));
  const members = await tx
    .select({ userId: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.companyId, row.companyId))
    .orderBy(asc(users.id));
  const recusalRows = await tx
    .select()
    .from(resolutionRecusals)
    .where(eq(resolutionRecusals.resolutionId, row.id))
    .orderBy(asc(resolutionRecusals.createdAt));
  const voteRows = await tx.select().from(votes).where(eq(votes.resolutionId, row.id)).orderBy(asc(votes.updatedAt), asc(votes.id));

  const recusedIds = new Set(recusalRows.map((recusal) => recusal.userId));
  const voters = members.filter((member) => votingRoles.includes(member.role));
  const eligible = voters.filter((member) => !recusedIds.has(member.userId));
  const eligibleById = new Map(eligible.map((member) => [member.userId, member]));
  const counted = voteRows.filter((vote) => eligibleById.has(vote.userId));
  const tally: Tally = { yes: 0, no: 0, abstain: 0 };
  for (const vote of counted) tally[vote.vote] += 1;
  const quorumPercent: QuorumPercent = company?.quorumPercent ?? null;
  const recused = voters.filter((member) => recusedIds.has(member.userId));

  const outcome = decideOutcome({
    type: row.type,
    tally,
    eligible: eligible.length,
    recused: recused.length,
    deadlinePassed: row.deadline.getTime() <= now.getTime(),
    quorumPercent,
  });
  if (!outcome.decided) return row;

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
    explanation: outcome.explanation,
  };
  const [updated] = await tx
    .update(resolutions)
    .set({ status: outcome.outcome, decidedAt: now, explanation: outcome.explanation, certificate })
    .where(eq(resolutions.id, row.id))
    .returning();
  await recordAudit(tx, clock, {
    actorId,
    companyId: row.companyId,
    action: "resolution.decided",
    targetType: "resolution",
    targetId: row.id,
    details: { outcome: outcome.outcome, ...tally, eligible: eligible.length, recused: recused.length },
  });
  await notify(tx, {
    kind: "resolutionDecided",
    companyId: row.companyId,
    recipients: members.map((member) => member.userId),
    title: `Resolution ${outcome.outcome}: ${row.title}`,
    body: outcome.explanation,
    link: `/resolutions/${row.id}`,
    at: clock.now(),
  });
  return updated ?? row;
}

/**
 * Runs `work` on the resolution under its row lock, once it is known to be open. A resolution that is due
 * (everyone voted, or the deadline passed) is decided first; the 409 that follows is answered after the
 * transaction commits, so the decision is kept.
 */
async function openWrite<T>(
  deps: Deps,
  id: number,
  actorId: number,
  work: (tx: Transaction, row: ResolutionRow, state: LiveState) => Promise<T>,
): Promise<T> {
  const result = await deps.db.transaction(async (tx): Promise<{ refused: HttpError } | { value: T }> => {
    const locked = await lockResolution(tx, id, actorId);
    if (!locked) throw notFound();
    const state = await liveState(tx, locked, actorId);
    // Not a member of the resolution's company: not found, as an id that names nothing (the routes that write
    // through here have no membership guard). The lock already required a membership; this reads it again in the
    // transaction's own view.
    if (state.voterRole === null) throw notFound();
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
      .where(and(eq(memberships.companyId, companyId), inArray(memberships.role, votingRoles), ne(memberships.userId, tenant.user.id)));
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
  voter: { id: number },
  id: number,
  input: CastVoteInput & { comment?: string | null },
): Promise<VoteCounts> {
  const userId = voter.id;
  return openWrite(deps, id, userId, async (tx, row, state): Promise<VoteCounts> => {
    if (state.recused) throw conflict("You declared a conflict of interest on this resolution: withdraw it to vote");
    const now = deps.clock.now();
    const previous = state.ownVote ? { vote: state.ownVote } : undefined;
    // The vote and its audit row in one statement (a data-modifying WITH runs whether or not the rest reads
    // it): one round trip less while the resolution's row lock is held and other votes on it wait.
    const upsert = tx.$with("cast_vote").as(
      tx
        .insert(votes)
        .values({ resolutionId: id, userId, vote: input.vote, comment: input.comment ?? null, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [votes.resolutionId, votes.userId],
          set: { vote: input.vote, comment: input.comment ?? null, updatedAt: now },
        })
        .returning({ id: votes.id }),
    );
    await tx
      .with(upsert)
      .insert(auditEvents)
      .values(
        auditRow(deps.clock, {
          actorId: userId,
          companyId: row.companyId,
          action: previous ? "resolution.vote_changed" : "resolution.voted",
          targetType: "resolution",
          targetId: id,
          details: previous ? { from: previous.vote, to: input.vote } : { vote: input.vote },
        }),
      );
    // The tally with this vote in it tells whether everyone eligible has now voted.
    const tally = { ...state.tally };
    if (previous) tally[previous.vote] -= 1;
    tally[input.vote] += 1;
    const after = await decideIfReady(tx, deps.clock, row, userId, { tally, eligible: state.eligible });
    // The answer is the counts as this transaction leaves them: the frozen tally if this vote decided it.
    const counts = after.certificate ? { yes: after.certificate.yes, no: after.certificate.no, abstain: after.certificate.abstain } : tally;
    return { ...counts, total: counts.yes + counts.no + counts.abstain, userVote: input.vote };
  });
}

/** `POST /api/resolutions/:id/conflict`: the caller's vote is withdrawn and they leave the denominator. */
export async function declareConflict(deps: Deps, actor: { id: number }, id: number, reason: string): Promise<void> {
  const userId = actor.id;
  await openWrite(deps, id, userId, async (tx, row) => {
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
export async function withdrawConflict(deps: Deps, actor: { id: number }, id: number): Promise<void> {
  const userId = actor.id;
  await openWrite(deps, id, userId, async (tx, row) => {
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

// --- Quorum setting ---

export async function quorumSetting({ db }: ServiceDeps<"db">, companyId: number): Promise<{ quorumPercent: QuorumPercent; rule: string }> {
  const [row] = await db.select({ quorumPercent: companies.quorumPercent }).from(companies).where(eq(companies.id, companyId));
  const quorumPercent = row?.quorumPercent ?? null;
  return { quorumPercent, rule: quorumRule(quorumPercent) };
}

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

/** Decides resolutions whose deadline passed, every `intervalMs`, so lists, the dashboard and notifications are right without a read. */
export function startResolutionSweep(deps: Deps & ServiceDeps<"logger">, intervalMs = 60_000): { stop: () => void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    decideDue(deps)
      .then((count) => {
        if (count > 0) deps.logger.info({ count }, "resolutions decided at their deadline");
      })
      .catch((error: unknown) => deps.logger.warn({ err: error }, "resolution sweep failed"))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
