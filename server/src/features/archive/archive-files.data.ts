// The archive's listings of stored files: every version of every paper with where its bytes are, the meeting each paper
// is filed under, approved minutes' PDFs and written resolutions' filed certificates. One query each, whatever the
// company's size; a file's bytes are read only when its entry is written (one read per file).
import { Readable } from "node:stream";
import { and, asc, eq, lt, ne, notInArray, sql } from "drizzle-orm";
import { minutesCategory, resolutionCertificatesCategory } from "../../../../shared/meeting-model";
import type { ServiceDeps } from "../../app-deps";
import { nameColumns } from "../../db/columns";
import {
  agendaItemDocuments,
  agendaItems,
  documentFiles,
  documents,
  documentVersions,
  meetingMinutes,
  meetings,
  users,
} from "../../db/schema";
import { readFile } from "../documents/documents.service";

type StoreDeps = ServiceDeps<"db" | "clock" | "appSecret" | "outbound">;

/** Where a file's bytes are; `inline`: whole in its row (files stored before chunks), read only when wanted. */
export interface StoredFile {
  storage: "database" | "s3";
  location: string | null;
  storageKey: string | null;
  inline: boolean;
  /** The row that holds inline bytes: the paper's latest file, or an earlier version's row. */
  row: { documentId: number; version: number | null };
}

/** What Quorum files itself: kept in their own folders of the archive, not among the papers. */
const filedRecordCategories = [minutesCategory, resolutionCertificatesCategory];

const storedColumns = (table: typeof documentFiles | typeof documentVersions) => ({
  storage: table.storage,
  location: table.location,
  storageKey: table.storageKey,
  inline: sql<boolean>`${table.bytes} is not null`,
});

const notAMeeting = sql`not exists (select 1 from ${meetings} where ${meetings.documentId} = ${documents.id})`;

/** The company's papers (files and notes, never meetings or filed records) with their latest version's file. */
export function listPapers(deps: ServiceDeps<"db">, companyId: number) {
  return deps.db
    .select({
      id: documents.id,
      name: documents.name,
      category: documents.category,
      description: documents.description,
      version: documents.version,
      fileType: documents.fileType,
      fileSize: documents.fileSize,
      uploadedAt: sql<Date>`coalesce(${documents.replacedAt}, ${documents.createdAt})`.mapWith(documents.createdAt),
      hasFile: sql<boolean>`${documentFiles.documentId} is not null`,
      ...storedColumns(documentFiles),
    })
    .from(documents)
    .leftJoin(documentFiles, eq(documentFiles.documentId, documents.id))
    .where(and(eq(documents.companyId, companyId), notAMeeting, notInArray(documents.category, filedRecordCategories)))
    .orderBy(asc(documents.id));
}

/** Every earlier version of the company's papers (the latest is the paper's own file), by paper and version. */
export function listEarlierVersions(deps: ServiceDeps<"db">, companyId: number) {
  return deps.db
    .select({
      documentId: documentVersions.documentId,
      version: documentVersions.version,
      fileType: documentVersions.fileType,
      fileSize: documentVersions.fileSize,
      uploadedAt: documentVersions.uploadedAt,
      ...storedColumns(documentVersions),
    })
    .from(documentVersions)
    .innerJoin(documents, eq(documents.id, documentVersions.documentId))
    .where(
      and(
        eq(documents.companyId, companyId),
        lt(documentVersions.version, documents.version),
        notInArray(documents.category, filedRecordCategories),
      ),
    )
    .orderBy(asc(documentVersions.documentId), asc(documentVersions.version));
}

/**
 * The meeting each paper is filed under: of the meetings whose agenda lists it, the earliest (by start, then id), so a
 * paper of several meetings is in one place and the same place in every archive of the same record.
 */
export async function listPaperMeetings(deps: ServiceDeps<"db">, companyId: number): Promise<Map<number, number>> {
  const rows = await deps.db
    .selectDistinctOn([agendaItemDocuments.documentId], { documentId: agendaItemDocuments.documentId, meetingId: meetings.documentId })
    .from(agendaItemDocuments)
    .innerJoin(agendaItems, eq(agendaItems.id, agendaItemDocuments.itemId))
    .innerJoin(meetings, eq(meetings.documentId, agendaItems.meetingId))
    .where(and(eq(meetings.companyId, companyId), ne(meetings.status, "draft")))
    .orderBy(asc(agendaItemDocuments.documentId), asc(meetings.startsAt), asc(meetings.documentId));
  return new Map(rows.map((row) => [row.documentId, row.meetingId]));
}

/** The company's meetings (never drafts), earliest first, with their chair's name. */
export function listMeetings(deps: ServiceDeps<"db">, companyId: number) {
  return deps.db
    .select({
      id: meetings.documentId,
      title: meetings.title,
      startsAt: meetings.startsAt,
      endsAt: meetings.endsAt,
      location: meetings.location,
      status: meetings.status,
      closedAt: meetings.closedAt,
      chairId: meetings.chairId,
      ...nameColumns,
    })
    .from(meetings)
    .leftJoin(users, eq(users.id, meetings.chairId))
    .where(and(eq(meetings.companyId, companyId), ne(meetings.status, "draft")))
    .orderBy(asc(meetings.startsAt), asc(meetings.documentId));
}

/** Approved minutes with their PDF in the library, by meeting. */
export function listApprovedMinutes(deps: ServiceDeps<"db">, companyId: number) {
  return deps.db
    .select({
      meetingId: meetingMinutes.meetingId,
      approvedAt: meetingMinutes.approvedAt,
      documentId: documents.id,
      name: documents.name,
      ...storedColumns(documentFiles),
    })
    .from(meetingMinutes)
    .innerJoin(meetings, eq(meetings.documentId, meetingMinutes.meetingId))
    .innerJoin(documents, eq(documents.id, meetingMinutes.documentId))
    .innerJoin(documentFiles, eq(documentFiles.documentId, documents.id))
    .where(and(eq(meetings.companyId, companyId), eq(meetingMinutes.status, "approved")))
    .orderBy(asc(meetings.startsAt), asc(meetings.documentId));
}

/** The certificates of written resolutions filed in the library, by their document's name. */
export async function listFiledCertificates(deps: ServiceDeps<"db">, companyId: number): Promise<Map<string, StoredFile>> {
  const rows = await deps.db
    .select({ documentId: documents.id, name: documents.name, ...storedColumns(documentFiles) })
    .from(documents)
    .innerJoin(documentFiles, eq(documentFiles.documentId, documents.id))
    .where(and(eq(documents.companyId, companyId), eq(documents.category, resolutionCertificatesCategory)))
    .orderBy(asc(documents.id));
  // Filed once per resolution; were one ever filed twice, the first is the record.
  const byName = new Map<string, StoredFile>();
  for (const { documentId, name, ...stored } of rows) {
    if (!byName.has(name)) byName.set(name, { ...stored, row: { documentId, version: null } });
  }
  return byName;
}

/**
 * A file in the database read one stored chunk (1 MiB) at a time, each asked for when the zip has taken the one
 * before. readFile's stream reads up to 16 chunks ahead of a slow reader, and chunks that wait that long reach V8's old
 * generation, freed only at its rare full collections: with it, a 2 GiB archive grew the server by 57 to 235 MB; a
 * chunk at a time, by 48 to 62 MB (docs/benchmarks.md).
 */
const sliceBytes = 1024 * 1024;

async function* databaseSlices(deps: StoreDeps, place: { storage: "database"; location: string | null; storageKey: string }) {
  for (let start = 0; ; start += sliceBytes) {
    let read = 0;
    for await (const piece of await readFile(deps, place, { start, end: start + sliceBytes - 1 })) {
      read += (piece as Buffer).length;
      yield piece as Buffer;
    }
    // A short slice is the file's last (one of exactly a multiple of the slice ends with an empty read).
    if (read < sliceBytes) return;
  }
}

/** A listed file's bytes, from wherever they are stored. */
export async function openStoredFile(deps: StoreDeps, file: StoredFile): Promise<Readable> {
  const { storage, location } = file;
  const storageKey = file.storageKey ?? "";
  if (!file.inline && storage === "database")
    return Readable.from(databaseSlices(deps, { storage, location, storageKey }), { objectMode: false });
  if (!file.inline) return readFile(deps, { storage, location, storageKey });
  const { documentId, version } = file.row;
  const [row] =
    version === null
      ? await deps.db.select({ bytes: documentFiles.bytes }).from(documentFiles).where(eq(documentFiles.documentId, documentId))
      : await deps.db
          .select({ bytes: documentVersions.bytes })
          .from(documentVersions)
          .where(and(eq(documentVersions.documentId, documentId), eq(documentVersions.version, version)));
  if (!row?.bytes) throw new Error(`the bytes of document ${documentId} are gone`);
  return Readable.from([row.bytes]);
}

/** The rows the listings answer. */
export type PaperRow = Awaited<ReturnType<typeof listPapers>>[number];
export type EarlierVersionRow = Awaited<ReturnType<typeof listEarlierVersions>>[number];
export type MeetingRow = Awaited<ReturnType<typeof listMeetings>>[number];
export type MinutesRow = Awaited<ReturnType<typeof listApprovedMinutes>>[number];
