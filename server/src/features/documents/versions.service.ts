// A paper's versions: replacing its file with a new one (every earlier version kept, none modified), its history, and
// any version's bytes.
import { and, desc, eq, isNull, ne, sql } from "drizzle-orm";
import { acceptedFileTypes, extensionOf, isAcceptedExtension, type AcceptedExtension } from "../../../../shared/documents";
import type { DocumentVersion } from "../../../../shared/paper-versions";
import { minutesCategory, resolutionCertificatesCategory } from "../../../../shared/meeting-model";
import { displayName } from "../../../../shared/people";
import { canDeleteDocument, can } from "../../../../shared/permissions";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import type { Queryable, Transaction } from "../../db/client";
import { documentFiles, documents, documentVersions, meetings, memberships, users } from "../../db/schema";
import { conflict, forbidden, notFound } from "../../http/errors";
import type { TenantContext } from "../../http/request-context";
import { notify } from "../notifications/notifications.service";
import type { DocumentDownload } from "./documents.service";
import { receiveFile } from "./documents.service";
import { unsupportedType } from "./file-checks";
import { claimFile, discardFile, readFile, sweepFiles } from "./file-storage";

type StoreDeps = ServiceDeps<"db" | "clock" | "appSecret" | "outbound">;

export const noFileToReplaceMessage = "Only a file can have versions: a note or a meeting is edited instead";
export const recordNotReplaceableMessage =
  "A record Quorum filed (approved minutes, a resolution's certificate) is never replaced: it is what the board decided";
export const observersCannotReplaceMessage = "Observers cannot replace papers";
export const notYourPaperMessage = "Only the paper's uploader, a founder or an admin can replace it";

/** The paper as a replacement finds it (locked, inside the transaction). */
interface Replaceable {
  name: string;
  category: string;
  version: number;
}

/**
 * Whether the caller may replace the paper: it is theirs (unless they are an observer), or they are a founder or
 * admin, as for deleting it; it is a file (a note or a meeting: 409) that Quorum did not file as a record (409). Another company's, a draft or none: 404. Asked
 * before any byte is read, and again under the row's lock.
 */
export async function assertReplaceable(db: Queryable, tenant: TenantContext, documentId: number, lock = false): Promise<Replaceable> {
  const query = db
    .select({
      name: documents.name,
      category: documents.category,
      version: documents.version,
      uploadedBy: documents.uploadedBy,
      meetingStatus: meetings.status,
      hasFile: sql<boolean>`${documentFiles.documentId} is not null`,
    })
    .from(documents)
    .leftJoin(documentFiles, eq(documentFiles.documentId, documents.id))
    .leftJoin(meetings, eq(meetings.documentId, documents.id))
    .where(and(eq(documents.id, documentId), eq(documents.companyId, tenant.company.id)));
  const [row] = await (lock ? query.for("update", { of: documents }) : query);
  if (!row || row.meetingStatus === "draft") throw notFound("Document not found");
  if (row.meetingStatus != null || !row.hasFile) throw conflict(noFileToReplaceMessage);
  // Its uploader is whoever approved or signed; a new version would swap the record itself under the same id.
  if (filedRecordCategories.has(row.category)) throw conflict(recordNotReplaceableMessage);
  if (!canDeleteDocument(tenant.role, row.uploadedBy === tenant.user.id)) {
    throw forbidden(can(tenant.role, "deleteDocument") ? notYourPaperMessage : observersCannotReplaceMessage);
  }
  return row;
}

/** What Quorum files itself as the board's record: approved minutes' PDFs and resolutions' certificates. */
const filedRecordCategories = new Set<string>([minutesCategory, resolutionCertificatesCategory]);

/** The paper's name with the new file's extension, when its own names another type ("Budget.pdf" → "Budget.docx"). */
export function renamedFor(name: string, extension: AcceptedExtension): string {
  const own = extensionOf(name);
  if (!isAcceptedExtension(own) || acceptedFileTypes[own] === acceptedFileTypes[extension]) return name;
  const stem = name.trim().slice(0, -(own.length + 1));
  return `${stem.slice(0, 300 - extension.length - 1)}.${extension}`;
}

/**
 * `POST /api/documents/:id/versions`: the new file's bytes are received and checked first, stored beside the old
 * ones; then one transaction, holding the paper's row, makes them the latest version. Until it commits the old
 * version is the paper's, and a refusal or failure anywhere leaves the paper as it was (the new bytes removed).
 */
export async function replaceDocumentFile(
  deps: StoreDeps,
  tenant: TenantContext,
  documentId: number,
  note: string,
  fileName: string,
  source: AsyncIterable<Buffer>,
): Promise<void> {
  const extension = extensionOf(fileName);
  if (!isAcceptedExtension(extension)) throw unsupportedType();
  const received = await receiveFile(deps, source, extension, acceptedFileTypes[extension]);
  try {
    const file = received.result(extension);
    const place = { ...received.place, sha256: file.sha256 };
    await deps.db.transaction(async (tx) => {
      const paper = await assertReplaceable(tx, tenant, documentId, true);
      const version = paper.version + 1;
      const now = deps.clock.now();
      await keepOldVersion(tx, documentId, paper.version);
      await tx.insert(documentVersions).values({
        documentId,
        version,
        fileType: file.fileType,
        fileSize: file.size,
        pages: file.pages,
        note,
        uploadedBy: tenant.user.id,
        uploadedAt: now,
        ...place,
      });
      // The old bytes stay, owned by the old version's row; the paper's file is the new one's.
      await tx
        .update(documentFiles)
        .set({ ...place, bytes: null })
        .where(eq(documentFiles.documentId, documentId));
      const name = renamedFor(paper.name, extension);
      await tx
        .update(documents)
        .set({ name, version, replacedAt: now, fileType: file.fileType, fileSize: file.size, pages: file.pages })
        .where(eq(documents.id, documentId));
      // Claimed here, in the same transaction: the bytes leave the sweep of abandoned uploads only if this commits.
      await claimFile(tx, place);
      await recordAudit(tx, deps.clock, {
        actorId: tenant.user.id,
        companyId: tenant.company.id,
        action: "document.replaced",
        targetType: "document",
        targetId: documentId,
        details: { name, version, note },
      });
      await tellTheBoard(tx, deps, tenant, name, paper.category);
    });
  } catch (error) {
    await discardFile(deps, received.place).catch(() => undefined);
    throw error;
  } finally {
    void sweepFiles(deps).catch(() => undefined);
  }
}

/**
 * The old version's row keeps its bytes: one stored whole in `document_files.bytes` (older than chunked storage) is
 * copied to it by the database, and a paper whose first version has no row yet (none should) gets one.
 */
async function keepOldVersion(tx: Transaction, documentId: number, version: number): Promise<void> {
  await tx.execute(sql`
    insert into document_versions (document_id, version, file_type, file_size, pages, uploaded_by, uploaded_at, storage, location, storage_key, sha256)
    select d.id, ${version}::integer, d.file_type, d.file_size, d.pages, d.uploaded_by, coalesce(d.replaced_at, d.created_at), f.storage, f.location, f.storage_key, f.sha256
    from documents d join document_files f on f.document_id = d.id where d.id = ${documentId}
    on conflict do nothing`);
  await tx.execute(sql`
    update document_versions v set bytes = f.bytes from document_files f
    where f.document_id = ${documentId} and f.bytes is not null and v.document_id = f.document_id and v.version = ${version}`);
}

/** Everyone else on the board hears of the new version, as of an upload (those who keep Document Updates on). */
async function tellTheBoard(tx: Transaction, deps: StoreDeps, tenant: TenantContext, name: string, category: string): Promise<void> {
  const others = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.companyId, tenant.company.id), ne(memberships.userId, tenant.user.id)));
  await notify(tx, {
    kind: "documentUploaded",
    companyId: tenant.company.id,
    recipients: others.map((other) => other.userId),
    title: `New version: ${name}`,
    body: `${displayName(tenant.user)} replaced it in ${category}.`,
    link: "/documents",
    at: deps.clock.now(),
  });
}

/** `GET /api/documents/:id/versions` (the guard has checked the company): newest first, with uploaders — one query. */
export async function listVersions({ db }: ServiceDeps<"db">, documentId: number): Promise<DocumentVersion[]> {
  const rows = await db
    .select({
      version: documentVersions.version,
      uploadedAt: documentVersions.uploadedAt,
      note: documentVersions.note,
      fileSize: documentVersions.fileSize,
      fileType: documentVersions.fileType,
      pages: documentVersions.pages,
      uploaderId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
    })
    .from(documentVersions)
    .leftJoin(users, eq(users.id, documentVersions.uploadedBy))
    .where(eq(documentVersions.documentId, documentId))
    .orderBy(desc(documentVersions.version));
  return rows.map((row) => ({
    version: row.version,
    uploadedBy: row.uploaderId == null ? null : displayName(row),
    uploadedAt: row.uploadedAt.toISOString(),
    note: row.note,
    fileSize: Number(row.fileSize),
    fileType: row.fileType,
    pages: row.pages,
  }));
}

/**
 * `GET /api/documents/:id/versions/:version/download`: that version's bytes, under the paper's name (with that
 * version's extension); 404 without it. The latest version is the paper's own file (so a paper stored before
 * versions were kept is served as its first), an earlier one wherever its row says.
 */
export async function versionDownload(deps: StoreDeps, documentId: number, version: number): Promise<DocumentDownload> {
  const [row] = await deps.db
    .select({
      name: documents.name,
      latest: documents.version,
      current: {
        fileType: documents.fileType,
        fileSize: documents.fileSize,
        storage: documentFiles.storage,
        location: documentFiles.location,
        storageKey: documentFiles.storageKey,
        bytes: documentFiles.bytes,
        sha256: documentFiles.sha256,
      },
      earlier: {
        fileType: documentVersions.fileType,
        fileSize: documentVersions.fileSize,
        storage: documentVersions.storage,
        location: documentVersions.location,
        storageKey: documentVersions.storageKey,
        bytes: documentVersions.bytes,
        sha256: documentVersions.sha256,
      },
    })
    .from(documents)
    .innerJoin(documentFiles, eq(documentFiles.documentId, documents.id))
    .leftJoin(documentVersions, and(eq(documentVersions.documentId, documents.id), eq(documentVersions.version, version)))
    .leftJoin(meetings, eq(meetings.documentId, documents.id))
    .where(and(eq(documents.id, documentId), isNull(meetings.documentId)));
  const file = row?.latest === version ? row.current : row?.earlier;
  if (!row || !file || (!file.storageKey && !file.bytes)) throw notFound("This paper has no such version");
  const place = { storage: file.storage, location: file.location, storageKey: file.storageKey ?? "", bytes: file.bytes };
  return {
    name: versionFileName(row.name, file.fileType),
    fileType: file.fileType,
    fileSize: Number(file.fileSize),
    etag: `"${file.sha256 ?? `d${documentId}-v${version}-${file.fileSize}`}"`,
    open: (range) => readFile(deps, place, range),
  };
}

const extensionFor = (fileType: string) =>
  (Object.keys(acceptedFileTypes) as AcceptedExtension[]).find((extension) => acceptedFileTypes[extension] === fileType) ?? null;

/** A version's file name: the paper's name with that version's extension (a paper once a Word file, now a PDF). */
export function versionFileName(name: string, fileType: string): string {
  const extension = extensionFor(fileType);
  return extension ? renamedFor(name, extension) : name;
}
