import { Readable } from "node:stream";
import { and, eq, isNull, ne } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import {
  acceptedFileTypes,
  extensionOf,
  isAcceptedExtension,
  type AcceptedExtension,
  type UploadFields,
} from "../../../../shared/documents";
import { displayName } from "../../../../shared/people";
import { can, canDeleteDocument, deniedMessage } from "../../../../shared/permissions";
import type { ServiceDeps } from "../../app-deps";
import type { Clock } from "../../clock";
import type { Transaction } from "../../db/client";
import { recordAudit } from "../../db/audit";
import { documentFiles, documents, documentVersions, meetings, memberships, resolutionDocuments } from "../../db/schema";
import { conflict, forbidden, notFound } from "../../http/errors";
import { invalidField, uploadCategoryOf, type CreateDocumentBody, type DocumentMeta } from "./document-fields";
import { inspectFile, unsupportedType, type InspectedFile } from "./file-checks";
import { claimFile, currentFileTarget, discardFile, readFile, releaseFile, sweepFiles, writeFile, type FilePlace } from "./file-storage";
import type { ByteRange } from "../../http/byte-range";
import type { TenantContext } from "../../http/request-context";
import { notify } from "../notifications/notifications.service";

type StoreDeps = ServiceDeps<"db" | "clock" | "appSecret" | "outbound">;

/**
 * `POST /api/documents` for a document without a file: it holds only its description. (A meeting's body goes
 * to the meetings feature, and a file, its `content` a `data:` URL, is streamed.) Answers the new document's id.
 */
export async function createDocument(deps: StoreDeps, tenant: TenantContext, input: CreateDocumentBody): Promise<number> {
  const name = input.name;
  if (!name) throw invalidField("name", "Name is required");
  const category = uploadCategoryOf(input.category);
  // A file (a base64 data: URL) never reaches here: the route streams it (`receiveFile`, `commitReceivedFile`).
  if (input.content.startsWith("data:")) throw invalidField("content", "content must be a base64 data: URL");
  return commitDocument(deps, tenant, { name, category, description: input.content, fileType: "text/plain", fileSize: 0 }, null);
}

/**
 * `POST /api/documents` as multipart/form-data (the app's own uploads): the text fields, then the file part,
 * whose bytes are checked and stored as they arrive. `fileName` is the part's own file name (its extension
 * is the claimed type).
 */
export async function uploadDocument(
  deps: StoreDeps,
  tenant: TenantContext,
  fields: UploadFields,
  fileName: string,
  source: AsyncIterable<Buffer>,
): Promise<number> {
  const extension = extensionOf(fileName);
  if (!isAcceptedExtension(extension)) throw unsupportedType();
  const meta = { name: fields.name, category: uploadCategoryOf(fields.category), description: fields.description ?? null };
  return storeDocumentFile(deps, tenant, meta, extension, source);
}

/** Checks and stores the bytes, then commits the document and claims them in one transaction. */
async function storeDocumentFile(
  deps: StoreDeps,
  tenant: TenantContext,
  meta: DocumentMeta,
  extension: AcceptedExtension,
  source: AsyncIterable<Buffer>,
): Promise<number> {
  const received = await receiveFile(deps, source, extension, acceptedFileTypes[extension]);
  return commitReceivedFile(deps, tenant, meta, extension, received);
}

/** A file checked and stored, not yet owned by a document (its place is on the sweep until then). */
export interface ReceivedFile {
  place: FilePlace;
  result: (claimed?: AcceptedExtension) => InspectedFile;
}

/**
 * The first half of an upload: the bytes are checked and stored as they arrive. `extension` is the claimed
 * type when known before the bytes (checked on the first bytes), or null when it is named only after them
 * (checked by `commitReceivedFile`, and the stored bytes removed on a refusal). A failure removes what was
 * stored and rethrows.
 */
export async function receiveFile(
  deps: StoreDeps,
  source: AsyncIterable<Buffer>,
  extension: AcceptedExtension | null,
  contentType: string,
): Promise<ReceivedFile> {
  const target = await currentFileTarget(deps);
  const inspected = inspectFile(source, extension);
  const place = await writeFile(deps, target, inspected.bytes, contentType);
  return { place, result: inspected.result };
}

/**
 * The second half: checks the received bytes against the type finally claimed, commits the document and
 * claims the bytes in one transaction. On any failure the bytes are removed.
 */
export async function commitReceivedFile(
  deps: StoreDeps,
  tenant: TenantContext,
  meta: DocumentMeta,
  extension: AcceptedExtension,
  received: ReceivedFile,
): Promise<number> {
  try {
    const { fileType, size, sha256, pages } = received.result(extension);
    return await commitDocument(deps, tenant, { ...meta, fileType, fileSize: size, pages }, { ...received.place, sha256 });
  } catch (error) {
    await discardFile(deps, received.place).catch(() => undefined);
    throw error;
  } finally {
    // Leftovers of abandoned uploads and deleted objects go a few at a time, on the back of new uploads.
    void sweepFiles(deps).catch(() => undefined);
  }
}

/** Removes the bytes of a received file whose document will not be committed. */
export async function abandonReceivedFile(deps: StoreDeps, received: ReceivedFile): Promise<void> {
  await discardFile(deps, received.place).catch(() => undefined);
}

async function commitDocument(
  deps: StoreDeps,
  tenant: TenantContext,
  row: DocumentMeta & { fileType: string; fileSize: number; pages?: number | null },
  file: (FilePlace & { sha256: string }) | null,
): Promise<number> {
  return deps.db.transaction((tx) =>
    insertDocument(
      tx,
      deps.clock,
      { companyId: tenant.company.id, actor: { id: tenant.user.id, name: displayName(tenant.user) } },
      row,
      file,
    ),
  );
}

/**
 * Inside the caller's transaction: the document's row, its stored file (claimed off the sweep of abandoned
 * uploads), the audit row and the word to the rest of the board. `actor` null: Quorum itself filed it (minutes
 * approved by a resolution of the board).
 */
export async function insertDocument(
  tx: Transaction,
  clock: Clock,
  by: { companyId: number; actor: { id: number; name: string } | null },
  row: DocumentMeta & { fileType: string; fileSize: number; pages?: number | null },
  file: (FilePlace & { sha256: string }) | null,
): Promise<number> {
  const actorId = by.actor?.id ?? null;
  const [created] = await tx
    .insert(documents)
    .values({ ...row, companyId: by.companyId, uploadedBy: actorId, createdAt: clock.now() })
    .returning({ id: documents.id });
  const id = created!.id;
  if (file) {
    await tx.insert(documentFiles).values({ documentId: id, ...file });
    // The first version: every later one is kept beside it, none modified.
    await tx.insert(documentVersions).values({
      documentId: id,
      version: 1,
      fileType: row.fileType,
      fileSize: row.fileSize,
      pages: row.pages ?? null,
      uploadedBy: actorId,
      uploadedAt: clock.now(),
      ...file,
    });
    await claimFile(tx, file);
  }
  await recordAudit(tx, clock, {
    actorId,
    companyId: by.companyId,
    action: "document.uploaded",
    targetType: "document",
    targetId: id,
    details: { name: row.name, fileType: row.fileType, fileSize: row.fileSize },
  });
  // The rest of the board hears of it (those who keep Document Updates on), in the same transaction.
  const others = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(
      actorId == null
        ? eq(memberships.companyId, by.companyId)
        : and(eq(memberships.companyId, by.companyId), ne(memberships.userId, actorId)),
    );
  await notify(tx, {
    kind: "documentUploaded",
    companyId: by.companyId,
    recipients: others.map((other) => other.userId),
    title: `New document: ${row.name}`,
    body: `${by.actor?.name ?? "Quorum"} added it to ${row.category}.`,
    link: "/documents",
    at: clock.now(),
  });
  return id;
}

export interface DocumentDownload {
  name: string;
  fileType: string;
  fileSize: number;
  etag: string;
  /** Opened only when the body is wanted (not for a 304); with a range, only those bytes. */
  open: (range?: ByteRange) => Promise<Readable>;
}

/** `GET /api/documents/:id/download` (the guard has checked the company): the stored file, or 404. */
export async function documentDownload(deps: StoreDeps, documentId: number): Promise<DocumentDownload> {
  const [row] = await deps.db
    .select({
      name: documents.name,
      fileType: documents.fileType,
      fileSize: documents.fileSize,
      bytes: documentFiles.bytes,
      storage: documentFiles.storage,
      location: documentFiles.location,
      storageKey: documentFiles.storageKey,
      sha256: documentFiles.sha256,
    })
    .from(documents)
    .innerJoin(documentFiles, eq(documentFiles.documentId, documents.id))
    .leftJoin(meetings, eq(meetings.documentId, documents.id))
    .where(and(eq(documents.id, documentId), isNull(meetings.documentId)));
  if (!row) throw notFound("This document has no file");
  const etag = `"${row.sha256 ?? `d${documentId}-${row.fileSize}`}"`;
  const place = { storage: row.storage, location: row.location, storageKey: row.storageKey ?? "", bytes: row.bytes };
  return { name: row.name, fileType: row.fileType, fileSize: Number(row.fileSize), etag, open: (range) => readFile(deps, place, range) };
}

const meetingNotDeletableMessage = "A meeting cannot be deleted as a document: cancel the meeting instead";

/**
 * `DELETE /api/documents/:id`: a file document goes with every version's file, in one transaction, and the deletion is
 * audited. Its uploader may delete it (unless an observer), and so may a founder or admin. A meeting is never
 * deleted through here (409, whoever asks): it has participants and a place in the calendar, and is cancelled
 * instead. A draft, a missing id or another company's document is not found.
 */
export async function deleteDocument(deps: StoreDeps, tenant: TenantContext, documentId: number): Promise<void> {
  const released = await deps.db.transaction(async (tx) => {
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
    const places = await storedPlaces(tx, documentId);
    for (const place of places) await releaseFile(tx, deps.clock.now(), place);
    // A resolution citing the document stays; it loses the citation (the link goes with the document), and
    // the audit row names the resolutions that cited it.
    const citedBy = await tx
      .select({ id: resolutionDocuments.resolutionId })
      .from(resolutionDocuments)
      .where(eq(resolutionDocuments.documentId, documentId));
    await tx.delete(documentFiles).where(eq(documentFiles.documentId, documentId));
    const removed = await tx.delete(documents).where(eq(documents.id, documentId)).returning({ id: documents.id });
    if (removed.length === 0) throw notFound("Document not found");
    await recordAudit(tx, deps.clock, {
      actorId: tenant.user.id,
      companyId: tenant.company.id,
      action: "document.deleted",
      targetType: "document",
      targetId: documentId,
      details: { name: row.name, ...(citedBy.length ? { citedByResolutions: citedBy.map((cite) => cite.id) } : {}) },
    });
    return places;
  });
  // An object in object storage goes after the commit; if that fails, the sweep entry written above retries it.
  for (const place of released) if (place.storage === "s3") await discardFile(deps, place).catch(() => undefined);
}

/** Where a paper's bytes are, every version's (the latest's in `document_files` too), each place once. */
async function storedPlaces(tx: Transaction, documentId: number): Promise<FilePlace[]> {
  const columns = (table: typeof documentFiles | typeof documentVersions) => ({
    storage: table.storage,
    location: table.location,
    storageKey: table.storageKey,
  });
  const rows = await unionAll(
    tx.select(columns(documentFiles)).from(documentFiles).where(eq(documentFiles.documentId, documentId)),
    tx.select(columns(documentVersions)).from(documentVersions).where(eq(documentVersions.documentId, documentId)),
  );
  const places = new Map<string, FilePlace>();
  for (const row of rows) if (row.storageKey) places.set(row.storageKey, { ...row, storageKey: row.storageKey });
  return [...places.values()];
}

// The file store itself, for files that are no document's (a meeting's built board pack).
export { claimFile, currentFileTarget, discardFile, readFile, releaseFile, sweepFiles, writeFile, type FilePlace } from "./file-storage";
// Papers read again later (the board pack) are held to the same bounds as at upload.
export { PdfBoundsCheck } from "./pdf-bounds";
