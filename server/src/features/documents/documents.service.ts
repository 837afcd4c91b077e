import { and, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { DocumentObject, createDocumentSchema } from "../../../../shared/documents";
import { meetingCategory } from "../../../../shared/meetings";
import { can, canDeleteDocument, deniedMessage, type Permission } from "../../../../shared/permissions";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import type { Database } from "../../db/client";
import { documentFiles, documents, meetings } from "../../db/schema";
import { HttpError, conflict, forbidden, notFound } from "../../http/errors";
import type { TenantContext } from "../../http/request-context";
import { meetingContents, notADraftMeeting, scheduleMeeting } from "../meetings/meetings.service";

export type CreateDocumentBody = z.output<typeof createDocumentSchema>;

/** The company of a document (drafts included), for the "thing" guard; null when there is none. */
export async function documentCompanyOf({ db }: ServiceDeps<"db">, documentId: number): Promise<number | null> {
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
export async function listDocuments({ db }: ServiceDeps<"db">, companyId: number): Promise<DocumentObject[]> {
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
export async function getDocument({ db }: ServiceDeps<"db">, documentId: number): Promise<DocumentObject> {
  const [row]: DocumentRow[] = await selectDocuments(db).where(and(eq(documents.id, documentId), notADraftMeeting(documents.id)));
  if (!row) throw notFound("Document not found");
  const contents = await meetingContents(db, [row.id]);
  return toDocumentObject(row, contents.get(row.id));
}

/**
 * What creating a document asks of the caller's role: a meeting (category "Meeting") is scheduled, anything
 * else is an upload. Read from the raw category, so the refusal comes before the body is validated.
 */
export function permissionToCreate(category: unknown): Permission {
  return typeof category === "string" && category.trim() === meetingCategory ? "scheduleMeeting" : "uploadDocument";
}

/**
 * `POST /api/documents`, one body for two things: a meeting (its `content` is the meeting's JSON) goes to the
 * meetings service; any other category is a file upload. Answers the new document's id.
 */
export async function createDocument(deps: ServiceDeps<"db" | "clock">, tenant: TenantContext, input: CreateDocumentBody): Promise<number> {
  if (input.category === meetingCategory) {
    return scheduleMeeting(deps, tenant, { content: input.content, sendNotifications: input.sendNotifications });
  }
  // The file branch (data URL decoding, type and size checks, storage) arrives with file uploads.
  throw new HttpError(400, "File uploads are not available yet");
}

const meetingNotDeletableMessage = "A meeting cannot be deleted as a document: cancel the meeting instead";

/**
 * `DELETE /api/documents/:id`: a file document goes with its file, in one transaction, and the deletion is
 * audited. Its uploader may delete it (unless an observer), and so may a founder or admin. A meeting is never
 * deleted through here (409, whoever asks): it has participants and a place in the calendar, and is cancelled
 * instead. A draft, a missing id or another company's document is not found.
 */
export async function deleteDocument(deps: ServiceDeps<"db" | "clock">, tenant: TenantContext, documentId: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ uploadedBy: documents.uploadedBy, name: documents.name, meetingStatus: meetings.status })
      .from(documents)
      .leftJoin(meetings, eq(meetings.documentId, documents.id))
      .where(and(eq(documents.id, documentId), eq(documents.companyId, tenant.company.id)));
    if (!row || row.meetingStatus === "draft") throw notFound("Document not found");
    if (row.meetingStatus != null) throw conflict(meetingNotDeletableMessage);
    if (!canDeleteDocument(tenant.role, row.uploadedBy === tenant.user.id)) {
      throw forbidden(deniedMessage(can(tenant.role, "deleteDocument") ? "deleteAnyDocument" : "deleteDocument"));
    }
    await tx.delete(documentFiles).where(eq(documentFiles.documentId, documentId));
    const removed = await tx.delete(documents).where(eq(documents.id, documentId)).returning({ id: documents.id });
    if (removed.length === 0) throw notFound("Document not found");
    await recordAudit(tx, deps.clock, {
      actorId: tenant.user.id,
      companyId: tenant.company.id,
      action: "document.deleted",
      targetType: "document",
      targetId: documentId,
      details: { name: row.name },
    });
  });
}
