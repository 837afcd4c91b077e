// Reading documents: one, a company's list, its library and its recent papers. Writing them is documents.service.ts.
import type { CompanyListCache } from "../../db/company-list-cache";
import { and, desc, eq, inArray, isNull, max, sql, type Placeholder } from "drizzle-orm";
import {
  previewLength,
  type DocumentCategory,
  type DocumentListItem,
  type DocumentObject,
  type LibraryDocument,
  type RecentDocument,
} from "../../../../shared/documents";
import { readingMinutes } from "../../../../shared/paper-versions";
import { displayName } from "../../../../shared/people";
import type { ServiceDeps } from "../../app-deps";
import type { Database } from "../../db/client";
import { preparedPerDatabase } from "../../db/prepared";
import { documentFiles, documentPageReads, documents, meetings, users } from "../../db/schema";
import { notFound } from "../../http/errors";
import { meetingContents, notADraftMeeting } from "../meetings/meetings.service";

/** The company of a document (drafts included), for the "thing" guard; null when there is none. */
export async function documentCompanyOf({ db }: ServiceDeps<"db">, documentId: number): Promise<number | null> {
  const [row] = await db.select({ companyId: documents.companyId }).from(documents).where(eq(documents.id, documentId));
  return row?.companyId ?? null;
}

const metadataColumns = {
  id: documents.id,
  name: documents.name,
  fileType: documents.fileType,
  fileSize: documents.fileSize,
  category: documents.category,
  companyId: documents.companyId,
  uploadedBy: documents.uploadedBy,
  createdAt: documents.createdAt,
  hasFile: sql<boolean>`${documentFiles.documentId} is not null`,
  version: documents.version,
  replacedAt: documents.replacedAt,
  pages: documents.pages,
};

/** One document: its whole text. */
const documentColumns = { ...metadataColumns, description: documents.description };

/**
 * A list's rows: a note's text (up to 100,000 characters) is cut by the database, so a list of fifty notes never
 * reads, keeps or sends their whole texts.
 */
const listColumns = {
  ...metadataColumns,
  description: sql<string | null>`left(${documents.description}, ${sql.raw(String(previewLength))})`,
  truncated: sql<boolean>`coalesce(char_length(${documents.description}) > ${sql.raw(String(previewLength))}, false)`,
};

type DocumentRow = {
  id: number;
  name: string;
  fileType: string;
  fileSize: number;
  category: string;
  description: string | null;
  companyId: number;
  uploadedBy: number | null;
  createdAt: Date;
  hasFile: boolean;
  version: number;
  replacedAt: Date | null;
  pages: number | null;
  /** A list's row: whether `description` was cut short. */
  truncated?: boolean;
};

function selectDocuments(db: Database, columns: typeof documentColumns | typeof listColumns) {
  return db.select(columns).from(documents).leftJoin(documentFiles, eq(documentFiles.documentId, documents.id));
}

/**
 * The latest version each of `documentIds` the caller has opened a page of (one query, whatever the count): a paper
 * they opened at an earlier version than its latest has "changed since you read it".
 */
async function versionsRead(db: Database, userId: number, documentIds: number[]): Promise<Map<number, number>> {
  if (documentIds.length === 0) return new Map();
  const rows = await db
    .select({ documentId: documentPageReads.documentId, version: max(documentPageReads.version) })
    .from(documentPageReads)
    .where(and(eq(documentPageReads.userId, userId), inArray(documentPageReads.documentId, documentIds)))
    .groupBy(documentPageReads.documentId);
  return new Map(rows.map((row) => [row.documentId, row.version ?? 0]));
}

const replacedIds = (rows: readonly { id: number; version: number }[]) => rows.filter((row) => row.version > 1).map((row) => row.id);

/** What the caller read of a paper: whether it changed since, and then the version they last opened (to compare from). */
type ReadFlags = Pick<DocumentObject, "changedSinceRead" | "readVersion">;
const unchanged: ReadFlags = { changedSinceRead: false, readVersion: null };

const readFlags = (read: Map<number, number>, row: { id: number; version: number }): ReadFlags => {
  const version = read.get(row.id);
  return version !== undefined && version < row.version ? { changedSinceRead: true, readVersion: version } : unchanged;
};

function toDocumentObject(row: DocumentRow, meetingContent: string | undefined, flags = unchanged): DocumentObject {
  return {
    id: row.id,
    name: row.name,
    fileType: row.fileType,
    fileSize: Number(row.fileSize),
    // A meeting's content is rebuilt from its rows; a file's is its description (never its bytes).
    content: meetingContent ?? row.description,
    category: row.category,
    companyId: row.companyId,
    uploadedBy: row.uploadedBy,
    createdAt: row.createdAt.toISOString(),
    hasFile: Boolean(row.hasFile),
    version: row.version,
    replacedAt: row.replacedAt?.toISOString() ?? null,
    pages: row.pages,
    readingMinutes: readingMinutes(row.pages),
    ...flags,
  };
}

function toListItem(row: DocumentRow, meetingContent: string | undefined, flags = unchanged): DocumentListItem {
  // A meeting's JSON is rebuilt whole from its rows.
  return {
    ...toDocumentObject(row, meetingContent, flags),
    truncated: meetingContent === undefined && Boolean(row.truncated),
  };
}

/**
 * `GET /api/documents`: the company's documents (only those of `category` when given), newest first, drafts
 * excluded — two queries whatever the count.
 */
export async function listDocuments(
  { db }: ServiceDeps<"db">,
  caller: { companyId: number; userId: number },
  category?: DocumentCategory,
): Promise<DocumentListItem[]> {
  const { companyId, userId } = caller;
  const rows: DocumentRow[] = await selectDocuments(db, listColumns)
    .where(
      and(
        eq(documents.companyId, companyId),
        category === undefined ? undefined : eq(documents.category, category),
        notADraftMeeting(documents.id),
      ),
    )
    .orderBy(desc(documents.createdAt), desc(documents.id));
  const ids = rows.map((row) => row.id);
  const [contents, read] = await Promise.all([meetingContents(db, ids), versionsRead(db, userId, ids)]);
  return rows.map((row) => toListItem(row, contents.get(row.id), readFlags(read, row)));
}

/** `GET /api/documents/:id` (the guard has already checked the company), as `userId` sees it. */
export async function getDocument({ db }: ServiceDeps<"db">, documentId: number, userId: number): Promise<DocumentObject> {
  const [row]: DocumentRow[] = await selectDocuments(db, documentColumns).where(
    and(eq(documents.id, documentId), notADraftMeeting(documents.id)),
  );
  if (!row) throw notFound("Document not found");
  const [contents, read] = await Promise.all([meetingContents(db, [row.id]), versionsRead(db, userId, [row.id])]);
  return toDocumentObject(row, contents.get(row.id), readFlags(read, row));
}

const libraryColumns = {
  ...listColumns,
  uploaderFirstName: users.firstName,
  uploaderLastName: users.lastName,
  uploaderUsername: users.username,
};

/** The company's library: documents that are not meetings, newest first, with their uploader (texts cut short) — one query. */
function selectLibrary(db: Database, companyId: number | Placeholder) {
  return db
    .select(libraryColumns)
    .from(documents)
    .leftJoin(documentFiles, eq(documentFiles.documentId, documents.id))
    .leftJoin(meetings, eq(meetings.documentId, documents.id))
    .leftJoin(users, eq(users.id, documents.uploadedBy))
    .where(and(eq(documents.companyId, companyId), isNull(meetings.documentId)))
    .orderBy(desc(documents.createdAt), desc(documents.id));
}

function uploaderOf(row: { uploaderFirstName: string | null; uploaderLastName: string | null; uploaderUsername: string | null }): string {
  return displayName({ firstName: row.uploaderFirstName, lastName: row.uploaderLastName, username: row.uploaderUsername });
}

const libraryQuery = preparedPerDatabase((db) => selectLibrary(db, sql.placeholder("companyId")).prepare("quorum_documents_library"));

/**
 * `GET /api/companies/:companyId/documents`: metadata only, never bytes. The company's list may come from the cache;
 * whether each paper changed since the caller read it is the caller's own, read for them (one more query).
 */
export async function listLibrary(
  { db, clock }: ServiceDeps<"db" | "clock">,
  caller: { companyId: number; userId: number },
  lists?: CompanyListCache,
): Promise<LibraryDocument[]> {
  const { companyId, userId } = caller;
  const load = async () => {
    const rows = await libraryQuery(db).execute({ companyId });
    const value = rows.map((row) => ({ ...toListItem(row, undefined), uploader: uploaderOf(row) }));
    return { value, ids: value.map((document) => document.id) };
  };
  const library = lists ? await lists.read(companyId, "library", clock.now().getTime(), load) : (await load()).value;
  // Only a replaced paper can have changed since it was read: the caller's reads of those alone (none: no query).
  const read = await versionsRead(db, userId, replacedIds(library));
  return read.size === 0 ? library : library.map((document) => ({ ...document, ...readFlags(read, document) }));
}

/** `GET /api/companies/:companyId/documents/recent`: the newest `limit` (default 5). */
export async function recentDocuments(
  { db }: ServiceDeps<"db">,
  caller: { companyId: number; userId: number },
  limit = 5,
): Promise<RecentDocument[]> {
  const rows = await selectLibrary(db, caller.companyId).limit(limit);
  const read = await versionsRead(db, caller.userId, replacedIds(rows));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    fileSize: Number(row.fileSize),
    uploader: uploaderOf(row),
    createdAt: row.createdAt.toISOString(),
    version: row.version,
    replacedAt: row.replacedAt?.toISOString() ?? null,
    ...readFlags(read, row),
  }));
}
