import { and, countDistinct, eq, inArray, ne, sql } from "drizzle-orm";
import type { BoardReading, MeetingReading, RecordReadsInput } from "../../../../shared/paper-reading";
import { displayName } from "../../../../shared/people";
import { canKeepMeetingRecord } from "../../../../shared/permissions";
import type { ServiceDeps } from "../../app-deps";
import {
  boardPackOpens,
  companies,
  documentPageReads,
  documents,
  meetingParticipants,
  meetings,
  memberships,
  users,
} from "../../db/schema";
import { forbidden, notFound } from "../../http/errors";
import type { TenantContext } from "../../http/request-context";
import { assertPagesWithin, meetingPapers, pagesOfVersion } from "./paper-pages";

type Deps = ServiceDeps<"db" | "clock">;

export const readReceiptsOffMessage = "This board has turned read receipts off";
export const boardReadingDeniedMessage = "Only founders, admins and the meeting's creator see who has read the papers";

/** `POST /api/documents/:id/reads`: the pages of one version the caller opened; pages already recorded keep their first time. */
export async function recordReads({ db, clock }: Deps, userId: number, documentId: number, input: RecordReadsInput): Promise<void> {
  const pages = await pagesOfVersion(db, documentId, input.version);
  assertPagesWithin(pages, input.pages, "pages");
  const now = clock.now();
  await db
    .insert(documentPageReads)
    .values([...new Set(input.pages)].map((page) => ({ userId, documentId, version: input.version, page, firstAt: now })))
    .onConflictDoNothing();
}

/** `POST /api/meetings/:id/reading/pack`: the caller opened the meeting's board pack (the first time is kept). */
export async function recordPackOpened({ db, clock }: Deps, userId: number, meetingId: number): Promise<void> {
  await db.insert(boardPackOpens).values({ meetingId, userId, firstAt: clock.now() }).onConflictDoNothing();
}

/**
 * `GET /api/meetings/:id/reading`: the caller's progress through the meeting's papers, counting the pages of each
 * paper's latest version they opened (pages of an older version were read in a text that has since changed). The
 * pack's share counts the papers whose pages are known. Two queries whatever the number of papers.
 */
export async function meetingReading({ db }: Deps, userId: number, meetingId: number): Promise<MeetingReading> {
  const papers = await meetingPapers(db, meetingId);
  const ids = papers.map((paper) => paper.documentId);
  const read =
    ids.length === 0
      ? []
      : await db
          .select({ documentId: documentPageReads.documentId, pages: countDistinct(documentPageReads.page) })
          .from(documentPageReads)
          .innerJoin(documents, and(eq(documents.id, documentPageReads.documentId), eq(documents.version, documentPageReads.version)))
          .where(and(eq(documentPageReads.userId, userId), inArray(documentPageReads.documentId, ids)))
          .groupBy(documentPageReads.documentId);
  const readOf = new Map(read.map((row) => [row.documentId, Number(row.pages)]));
  const rows = papers.map((paper) => ({ documentId: paper.documentId, pages: paper.pages, pagesRead: readOf.get(paper.documentId) ?? 0 }));
  const counted = rows.filter((row) => row.pages !== null && row.pages > 0);
  const total = counted.reduce((sum, row) => sum + row.pages!, 0);
  const opened = counted.reduce((sum, row) => sum + Math.min(row.pagesRead, row.pages!), 0);
  return { papers: rows, packShare: total === 0 ? 0 : opened / total };
}

/**
 * `GET /api/meetings/:id/reading/board`: for founders, admins and the meeting's creator, while the company keeps read
 * receipts on: each director (the meeting's participants, or every member when it names none; never observers),
 * whether they opened the pack and which papers they opened. Never which pages, nor when. Five queries whatever the
 * number of directors or papers.
 */
export async function boardReading({ db }: Deps, tenant: TenantContext, meetingId: number): Promise<BoardReading> {
  const [meeting] = await db
    .select({ createdBy: meetings.createdBy, readReceipts: companies.readReceipts })
    .from(meetings)
    .innerJoin(companies, eq(companies.id, meetings.companyId))
    .where(eq(meetings.documentId, meetingId));
  if (!meeting) throw notFound("Meeting not found");
  // The creator while they may still keep the meeting's record: one made an observer since sees no receipts.
  if (!canKeepMeetingRecord(tenant.role, meeting.createdBy === tenant.user.id)) throw forbidden(boardReadingDeniedMessage);
  if (!meeting.readReceipts) throw forbidden(readReceiptsOffMessage);

  const [directors, papers, opens] = await Promise.all([
    directorsOf(db, tenant.company.id, meetingId),
    meetingPapers(db, meetingId),
    db.select({ userId: boardPackOpens.userId }).from(boardPackOpens).where(eq(boardPackOpens.meetingId, meetingId)),
  ]);
  const paperIds = papers.map((paper) => paper.documentId);
  const directorIds = directors.map((director) => director.id);
  const reads =
    paperIds.length === 0 || directorIds.length === 0
      ? []
      : await db
          .selectDistinct({ userId: documentPageReads.userId, documentId: documentPageReads.documentId })
          .from(documentPageReads)
          .where(and(inArray(documentPageReads.documentId, paperIds), inArray(documentPageReads.userId, directorIds)));
  const packOpened = new Set(opens.map((open) => open.userId));
  const openedBy = new Map<number, Set<number>>();
  for (const read of reads) openedBy.set(read.userId, (openedBy.get(read.userId) ?? new Set()).add(read.documentId));
  return directors.map((director) => ({
    userId: director.id,
    name: displayName(director),
    packOpened: packOpened.has(director.id),
    // In agenda order.
    opened: paperIds.filter((id) => openedBy.get(director.id)?.has(id)),
  }));
}

/** The meeting's directors, by name: its participants who are members (not observers), or every such member when it names none. */
async function directorsOf(db: Deps["db"], companyId: number, meetingId: number) {
  const named = sql`exists (select 1 from ${meetingParticipants} where ${meetingParticipants.meetingId} = ${meetingId})`;
  const participant = sql`exists (select 1 from ${meetingParticipants} where ${meetingParticipants.meetingId} = ${meetingId} and ${meetingParticipants.userId} = ${memberships.userId})`;
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.companyId, companyId), ne(memberships.role, "observer"), sql`(not ${named} or ${participant})`));
  return rows.sort((a, b) => displayName(a).localeCompare(displayName(b)) || a.id - b.id);
}
