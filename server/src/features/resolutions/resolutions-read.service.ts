// Reading resolutions: the company's list, those pending, one resolution with its details, and the one query the
// vote poll and every write on a resolution share.
import { and, asc, desc, eq, gt, sql, type Placeholder } from "drizzle-orm";
import { displayName } from "../../../../shared/people";
import type { PendingResolutionSummary, Resolution, ResolutionDetails, Tally, VoteChoice } from "../../../../shared/resolutions";
import type { WrittenCertificate } from "../../../../shared/written-resolutions";
import type { ServiceDeps } from "../../app-deps";
import type { Database } from "../../db/client";
import { preparedPerDatabase } from "../../db/prepared";
import { documentFiles, documents, memberships, resolutionDocuments, resolutionRecusals, resolutions, users, votes } from "../../db/schema";
import { notFound } from "../../http/errors";
import { mayVote } from "./eligible-voters";
import { decideDue, decideOnRead, eligibleCount, frozenTally, isDue, tallyOf, type ResolutionRow } from "./resolution-decision";
import type { CompanyListCache } from "../../db/company-list-cache";
import { awaitingSignatureOf, writtenStateOf, type Viewer } from "./written-read.service";

type Deps = ServiceDeps<"db" | "clock">;

/** The caller's own vote on the resolution, as a subquery. */
export const ownVoteOf = (userId: number | Placeholder) =>
  sql<VoteChoice | null>`${sql`(select ${votes.vote} from ${votes} where ${votes.resolutionId} = ${resolutions.id} and ${votes.userId} = ${userId})`}`;

const listColumns = {
  id: resolutions.id,
  title: resolutions.title,
  description: resolutions.description,
  procedure: resolutions.procedure,
  type: resolutions.type,
  deadline: resolutions.deadline,
  textSha256: resolutions.textSha256,
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
  procedure: ResolutionRow["procedure"];
  type: ResolutionRow["type"];
  deadline: Date;
  textSha256: string | null;
  status: ResolutionRow["status"];
  createdAt: Date;
  createdBy: number | null;
  decidedAt: Date | null;
  explanation: string | null;
  documentIds: number[];
  tally: Tally;
}

export function toResolution(row: ListRow): Resolution {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    procedure: row.procedure,
    type: row.type,
    deadline: row.deadline.toISOString(),
    textSha256: row.textSha256,
    lapsesAt: row.procedure === "written" ? row.deadline.toISOString() : null,
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
 * The list's live tallies in one pass: the company's votes by those who may vote on each resolution, grouped by
 * resolution. The same count as `tallyOf` (which the poll and a vote use for one resolution), without a subquery
 * per row: on a list of 30 resolutions that was most of the list's time in Postgres.
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
      and(eq(memberships.userId, votes.userId), mayVote({ id: votes.resolutionId, companyId }, { ofTheirVote: true })),
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
export async function listResolutions(deps: Deps, companyId: number, lists?: CompanyListCache): Promise<Resolution[]> {
  // The rows and their answer, mapped once for as long as the list is kept.
  const load = async () => {
    const rows = await listQuery(deps.db).execute({ companyId });
    return { value: { rows, answer: rows.map(toResolution) }, ids: rows.map((row) => row.id) };
  };
  const { rows, answer } = lists ? await lists.read(companyId, "resolutions", deps.clock.now().getTime(), load) : (await load()).value;
  // The list itself shows whether one is due by its deadline (pending, past it, with votes): only then are those
  // decided, under their locks, and the list read again.
  const now = deps.clock.now();
  if (!rows.some((row) => isDue(row, row.tally, Number.MAX_SAFE_INTEGER, now))) return answer;
  await decideDue(deps, companyId);
  return (await load()).value.answer;
}

/** `GET /api/companies/:companyId/resolutions/pending`: pending and not past the deadline, soonest deadline first. */
export async function pendingResolutions(deps: Deps, companyId: number, userId: number): Promise<PendingResolutionSummary[]> {
  await decideDue(deps, companyId);
  const rows = await deps.db
    .select({
      id: resolutions.id,
      title: resolutions.title,
      createdAt: resolutions.createdAt,
      deadline: resolutions.deadline,
      procedure: resolutions.procedure,
      awaitingYourSignature: awaitingSignatureOf(userId),
    })
    .from(resolutions)
    .where(and(eq(resolutions.companyId, companyId), eq(resolutions.status, "pending"), gt(resolutions.deadline, deps.clock.now())))
    .orderBy(asc(resolutions.deadline), asc(resolutions.id));
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    createdAt: row.createdAt.toISOString(),
    deadline: row.deadline.toISOString(),
    procedure: row.procedure,
    awaitingYourSignature: row.awaitingYourSignature === true,
  }));
}

/** One query: the resolution with its tally, how many may vote, and the caller's own vote (the vote poll's). */
const readQuery = preparedPerDatabase((db) =>
  db
    .select({ ...listColumns, companyId: resolutions.companyId, eligible: eligibleCount, ownVote: ownVoteOf(sql.placeholder("userId")) })
    .from(resolutions)
    .where(eq(resolutions.id, sql.placeholder("id")))
    .prepare("quorum_resolution_read"),
);

export type ResolutionRead = ListRow & { companyId: number; eligible: number; ownVote: VoteChoice | null };

export async function readResolution(db: Database, id: number, userId?: number): Promise<ResolutionRead | undefined> {
  // No caller: user id 0 is nobody's, so no vote.
  const [row] = await readQuery(db).execute({ id, userId: userId ?? 0 });
  return row;
}

/** The resolution as a reader should see it: decided first when it is due, which the one read tells. */
export async function currentResolution(deps: Deps, id: number, userId?: number, read?: ResolutionRead): Promise<ResolutionRead> {
  const row = read ?? (await readResolution(deps.db, id, userId));
  if (!row) throw notFound();
  if (!isDue(row, row.tally, row.eligible, deps.clock.now())) return row;
  await decideOnRead(deps, id);
  const decided = await readResolution(deps.db, id, userId);
  if (!decided) throw notFound();
  return decided;
}

export async function resolutionRow(db: Database, id: number): Promise<ListRow> {
  const row = await readResolution(db, id);
  if (!row) throw notFound();
  return row;
}

/**
 * `GET /api/resolutions/:id`: the resolution, its documents, who has voted (never their choices while pending), the
 * certificate once decided; of a written one, its signing state as `viewer` sees it (who has signed, never how, while
 * pending) and its frozen certificate once decided.
 */
export async function resolutionDetails(deps: Deps, id: number, viewer?: Viewer): Promise<ResolutionDetails> {
  const row = await currentResolution(deps, id);
  const [attached, voterRows, recusalRows] = [
    await deps.db
      .select({
        id: documents.id,
        name: documents.name,
        fileType: documents.fileType,
        hasFile: sql<boolean>`${documentFiles.documentId} is not null`,
        version: documents.version,
        replacedAt: documents.replacedAt,
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
  const [stored] = await deps.db
    .select({
      certificate: resolutions.certificate,
      writtenRule: resolutions.writtenRule,
      writtenCertificate: resolutions.writtenCertificate,
    })
    .from(resolutions)
    .where(eq(resolutions.id, id));
  const certificate = stored?.certificate ?? null;
  const writtenCertificate = stored?.writtenCertificate ?? null;
  const written =
    row.procedure === "written"
      ? await writtenStateOf(deps.db, { ...row, writtenRule: stored?.writtenRule ?? null, writtenCertificate }, viewer, deps.clock.now())
      : null;
  return {
    ...toResolution(row),
    documents: attached.map((doc) => ({ ...doc, hasFile: Boolean(doc.hasFile), replacedAt: doc.replacedAt?.toISOString() ?? null })),
    voters: certificate
      ? certificate.votes.map(({ userId, name }) => ({ userId, name }))
      : voterRows.map((voter) => ({ userId: voter.userId, name: displayName(voter) })),
    recusals: certificate
      ? certificate.recused
      : recusalRows.map((recusal) => ({ userId: recusal.userId, name: displayName(recusal), reason: recusal.reason })),
    certificate,
    written,
    writtenCertificate,
  };
}

/** `GET /api/resolutions/:id/certificate.json`: a decided written resolution's frozen certificate (lapsed ones decided first). */
export async function writtenCertificateOf(deps: Deps, id: number): Promise<WrittenCertificate> {
  await currentResolution(deps, id);
  const [stored] = await deps.db.select({ certificate: resolutions.writtenCertificate }).from(resolutions).where(eq(resolutions.id, id));
  if (!stored?.certificate) throw notFound("This resolution has no certificate of a written decision yet");
  return stored.certificate;
}
