import { and, desc, eq, sql } from "drizzle-orm";
import type { DocumentObject } from "../../../../shared/documents";
import type { Database } from "../../db/client";
import { documentFiles, documents } from "../../db/schema";
import { notFound } from "../../http/errors";
import { meetingContents, notADraftMeeting } from "../meetings/meetings.service";

/** The company of a document (drafts included), for the "thing" guard; null when there is none. */
export async function documentCompanyOf(db: Database, documentId: number): Promise<number | null> {
  const [row] = await db.select({ companyId: documents.companyId }).from(documents).where(eq(documents.id, documentId));
  return row?.companyId ?? null;
}

const documentColumns = {
  id: documents.id,
  name: documents.name,
  fileType: documents.fileType,
  fileSize: documents.fileSize,
  category: documents.category,
  description: documents.description,
  companyId: documents.companyId,
  uploadedBy: documents.uploadedBy,
  createdAt: documents.createdAt,
  hasFile: sql<boolean>`${documentFiles.documentId} is not null`,
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
};

function selectDocuments(db: Database) {
  return db.select(documentColumns).from(documents).leftJoin(documentFiles, eq(documentFiles.documentId, documents.id));
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

/** `GET /api/documents`: the company's documents, newest first, drafts excluded — two queries whatever the count. */
export async function listDocuments(db: Database, companyId: number): Promise<DocumentObject[]> {
  const rows: DocumentRow[] = await selectDocuments(db)
    .where(and(eq(documents.companyId, companyId), notADraftMeeting(documents.id)))
    .orderBy(desc(documents.createdAt), desc(documents.id));
  const contents = await meetingContents(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toDocumentObject(row, contents.get(row.id)));
}

/** `GET /api/documents/:id` (the guard has already checked the company). */
export async function getDocument(db: Database, documentId: number): Promise<DocumentObject> {
  const [row]: DocumentRow[] = await selectDocuments(db).where(and(eq(documents.id, documentId), notADraftMeeting(documents.id)));
  if (!row) throw notFound("Document not found");
  const contents = await meetingContents(db, [row.id]);
  return toDocumentObject(row, contents.get(row.id));
}
