// Reading documents: one, a company's list, its library and its recent papers. Writing them is documents.service.ts.
import type { CompanyListCache } from "../../db/company-list-cache";
import { and, desc, eq, isNull, sql, type Placeholder } from "drizzle-orm";
import {
  previewLength,
  type DocumentCategory,
  type DocumentListItem,
  type DocumentObject,
  type LibraryDocument,
  type RecentDocument,
} from "../../../../shared/documents";
import { displayName } from "../../../../shared/people";
import type { ServiceDeps } from "../../app-deps";
import type { Database } from "../../db/client";
import { preparedPerDatabase } from "../../db/prepared";
import { documentFiles, documents, meetings, users } from "../../db/schema";
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
  /** A list's row: whether `description` was cut short. */
  truncated?: boolean;
};

function selectDocuments(db: Database, columns: typeof documentColumns | typeof listColumns) {
  return db.select(columns).from(documents).leftJoin(documentFiles, eq(documentFiles.documentId, documents.id));
}

function toDocumentObject(row: DocumentRow, meetingContent: string | undefined): DocumentObject {
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
  };
}

function toListItem(row: DocumentRow, meetingContent: string | undefined): DocumentListItem {
  // A meeting's JSON is rebuilt whole from its rows.
  return { ...toDocumentObject(row, meetingContent), truncated: meetingContent === undefined && Boolean(row.truncated) };
}

/**
 * `GET /api/documents`: the company's documents (only those of `category` when given), newest first, drafts
 * excluded — two queries whatever the count.
 */
export async function listDocuments(
  { db }: ServiceDeps<"db">,
  companyId: number,
  category?: DocumentCategory,
): Promise<DocumentListItem[]> {
  const rows: DocumentRow[] = await selectDocuments(db, listColumns)
    .where(
      and(
        eq(documents.companyId, companyId),
        category === undefined ? undefined : eq(documents.category, category),
        notADraftMeeting(documents.id),
      ),
    )
    .orderBy(desc(documents.createdAt), desc(documents.id));
  const contents = await meetingContents(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toListItem(row, contents.get(row.id)));
}

/** `GET /api/documents/:id` (the guard has already checked the company). */
export async function getDocument({ db }: ServiceDeps<"db">, documentId: number): Promise<DocumentObject> {
  const [row]: DocumentRow[] = await selectDocuments(db, documentColumns).where(
    and(eq(documents.id, documentId), notADraftMeeting(documents.id)),
  );
  if (!row) throw notFound("Document not found");
  const contents = await meetingContents(db, [row.id]);
  return toDocumentObject(row, contents.get(row.id));
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

/** `GET /api/companies/:companyId/documents`: metadata only, never bytes. */
export async function listLibrary(
  { db, clock }: ServiceDeps<"db" | "clock">,
  companyId: number,
  lists?: CompanyListCache,
): Promise<LibraryDocument[]> {
  const load = async () => {
    const rows = await libraryQuery(db).execute({ companyId });
    const value = rows.map((row) => ({ ...toListItem(row, undefined), uploader: uploaderOf(row) }));
    return { value, ids: value.map((document) => document.id) };
  };
  return lists ? lists.read(companyId, "library", clock.now().getTime(), load) : (await load()).value;
}

/** `GET /api/companies/:companyId/documents/recent`: the newest `limit` (default 5). */
export async function recentDocuments({ db }: ServiceDeps<"db">, companyId: number, limit = 5): Promise<RecentDocument[]> {
  const rows = await selectLibrary(db, companyId).limit(limit);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    fileSize: Number(row.fileSize),
    uploader: uploaderOf(row),
    createdAt: row.createdAt.toISOString(),
  }));
}
