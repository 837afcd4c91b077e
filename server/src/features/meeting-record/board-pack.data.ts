import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { and, asc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { AgendaPurpose, MeetingStatus } from "../../../../shared/meeting-model";
import { displayName } from "../../../../shared/people";
import type { ServiceDeps } from "../../app-deps";
import type { Queryable } from "../../db/client";
import { companies, documentFiles, documents, documentVersions, meetingParticipants, meetings, users } from "../../db/schema";
import { meetingScheduleColumns, nameColumns } from "../../db/columns";
import { HttpError, notFound } from "../../http/errors";
import { documentDownload, PdfBoundsCheck } from "../documents/documents.service";
import { readAgenda } from "../meetings/agenda-items.service";
import { presenterNames } from "./agenda-presenters.data";

/** Raised whenever the pack's layout changes, so packs built by older code are not answered 304. */
const layoutVersion = 6;

/** A paper of an item: a library document with a file (meetings and documents without one are never papers). */
export interface PackPaper {
  id: number;
  name: string;
  fileType: string;
  fileSize: number;
  createdAt: string;
  /** Where its bytes are and their hash: a replaced file changes the pack's tag even under the same name and size. */
  storageKey: string | null;
  sha256: string | null;
  /** The latest version's number: the pack always merges the latest. */
  version: number;
  /** When that version replaced the one before; null for a first version. */
  replacedAt: string | null;
}

/** A paper replaced since the pack was first built, as its cover lists it. */
export interface ReplacedPaper {
  name: string;
  version: number;
  replacedAt: string;
  /** The new version's change note. */
  note: string | null;
}

export interface PackItem {
  id: number;
  title: string;
  presenter: string | null;
  durationMinutes: number;
  description: string;
  purpose: AgendaPurpose;
  startsAt: string;
  papers: PackPaper[];
}

/** Everything a board pack shows, read without a single paper's bytes. */
export interface PackData {
  meeting: {
    id: number;
    title: string;
    startsAt: string;
    endsAt: string;
    location: string;
    status: MeetingStatus;
    sequence: number;
  };
  company: { name: string; logoUrl: string | null };
  /** Names in the order the cover lists them. */
  participants: string[];
  items: PackItem[];
  /**
   * The meeting's papers replaced since its pack was first built, oldest replacement first (none before the first
   * build, so setting that time leaves the pack's tag as it was).
   */
  replacedSince: ReplacedPaper[];
}

const byName = (a: string, b: string) => a.localeCompare(b, "en", { sensitivity: "base" }) || (a < b ? -1 : a > b ? 1 : 0);

/**
 * Marks the meeting's pack as first built now, unless it was before: the papers replaced after this are listed on
 * the cover of every later pack.
 */
export async function markPackBuilt(db: Queryable, meetingId: number, now: Date): Promise<void> {
  await db
    .update(meetings)
    .set({ packFirstBuiltAt: now })
    .where(and(eq(meetings.documentId, meetingId), isNull(meetings.packFirstBuiltAt)));
}

/**
 * What a meeting's board pack shows: the meeting and its company, its participants, and its agenda items with
 * their presenters and papers. At most eight queries whatever the length of the agenda. A draft or a missing
 * meeting: 404.
 */
export async function readPackData(db: Queryable, meetingId: number): Promise<PackData> {
  const [meeting] = await db
    .select({
      ...meetingScheduleColumns,
      sequence: meetings.sequence,
      companyId: meetings.companyId,
      companyName: companies.name,
      logoUrl: companies.logoUrl,
      packFirstBuiltAt: meetings.packFirstBuiltAt,
    })
    .from(meetings)
    .innerJoin(companies, eq(companies.id, meetings.companyId))
    .where(and(eq(meetings.documentId, meetingId), ne(meetings.status, "draft")));
  if (!meeting) throw notFound("Meeting not found");

  const [participantRows, agenda] = await Promise.all([
    db
      .select({ ...nameColumns })
      .from(meetingParticipants)
      .innerJoin(users, eq(users.id, meetingParticipants.userId))
      .where(eq(meetingParticipants.meetingId, meetingId)),
    readAgenda(db, meetingId, { startsAt: meeting.startsAt }),
  ]);

  const documentIds = [...new Set(agenda.flatMap((item) => item.documentIds))];
  const [presenters, paperRows] = await Promise.all([
    presenterNames(db, agenda),
    documentIds.length === 0
      ? []
      : db
          .select({
            id: documents.id,
            name: documents.name,
            fileType: documents.fileType,
            fileSize: documents.fileSize,
            createdAt: documents.createdAt,
            storageKey: documentFiles.storageKey,
            sha256: documentFiles.sha256,
            storedWhole: sql<boolean>`${documentFiles.bytes} is not null`,
            version: documents.version,
            replacedAt: documents.replacedAt,
            note: documentVersions.note,
          })
          .from(documents)
          .innerJoin(documentFiles, eq(documentFiles.documentId, documents.id))
          .leftJoin(documentVersions, and(eq(documentVersions.documentId, documents.id), eq(documentVersions.version, documents.version)))
          .leftJoin(meetings, eq(meetings.documentId, documents.id))
          // Papers are checked against the company when attached; checked again here, so no other company's file is ever read.
          .where(and(inArray(documents.id, documentIds), eq(documents.companyId, meeting.companyId), isNull(meetings.documentId)))
          .orderBy(asc(documents.id)),
  ]);

  const papers = new Map<number, PackPaper>();
  const replacedSince: ReplacedPaper[] = [];
  for (const row of paperRows) {
    if (!row.storageKey && !row.storedWhole) continue;
    if (meeting.packFirstBuiltAt && row.replacedAt && row.replacedAt > meeting.packFirstBuiltAt) {
      replacedSince.push({ name: row.name, version: row.version, replacedAt: row.replacedAt.toISOString(), note: row.note });
    }
    papers.set(row.id, {
      id: row.id,
      name: row.name,
      fileType: row.fileType,
      fileSize: Number(row.fileSize),
      createdAt: row.createdAt.toISOString(),
      storageKey: row.storageKey,
      sha256: row.sha256,
      version: row.version,
      replacedAt: row.replacedAt?.toISOString() ?? null,
    });
  }

  return {
    meeting: {
      id: meetingId,
      title: meeting.title,
      startsAt: meeting.startsAt.toISOString(),
      endsAt: meeting.endsAt.toISOString(),
      location: meeting.location,
      status: meeting.status,
      sequence: meeting.sequence,
    },
    company: { name: meeting.companyName, logoUrl: meeting.logoUrl },
    participants: participantRows.map((row) => displayName(row)).sort(byName),
    items: agenda.map((item) => ({
      id: item.id,
      title: item.title,
      presenter: item.presenterId == null ? null : (presenters.get(item.presenterId) ?? null),
      durationMinutes: item.durationMinutes,
      description: item.description,
      purpose: item.purpose,
      startsAt: item.startsAt,
      papers: item.documentIds.flatMap((id) => papers.get(id) ?? []),
    })),
    replacedSince: replacedSince.sort((a, b) => a.replacedAt.localeCompare(b.replacedAt) || a.name.localeCompare(b.name)),
  };
}

/** The pack's ETag: a hash of everything it shows, so an unchanged pack is answered 304 without being built. */
export function packEtag(data: PackData): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ layoutVersion, ...data }));
  return `"bp-${hash.digest("base64url")}"`;
}

/**
 * A paper's bytes, read from storage: null when it was deleted since the agenda was read, "too large" (and the read
 * stopped) once more than `maxBytes` have come, so a file larger than its recorded size cannot overrun the pack's limit.
 * "refused" when its bytes pass the bounds a PDF is held to at upload (its pages, what it inflates to, what cannot
 * be checked): a paper stored before those bounds, or one they missed, is never handed to a PDF reader.
 */
export async function readPaperBytes(
  deps: ServiceDeps<"db" | "clock" | "appSecret" | "outbound">,
  documentId: number,
  maxBytes: number,
): Promise<Buffer | null | "too large" | "refused"> {
  let stream: Readable;
  try {
    stream = await (await documentDownload(deps, documentId)).open();
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return null;
    throw error;
  }
  const chunks: Buffer[] = [];
  let length = 0;
  // Every paper, whatever its recorded type: a reader finds a PDF wherever its bytes say so.
  const bounds = new PdfBoundsCheck();
  try {
    for await (const chunk of stream) {
      length += (chunk as Buffer).length;
      // Leaving the loop destroys the stream.
      if (length > maxBytes) return "too large";
      chunks.push(chunk as Buffer);
      await bounds.write(chunk as Buffer);
    }
    await bounds.end();
  } catch (error) {
    if (error instanceof HttpError && error.status === 400) return "refused";
    throw error;
  } finally {
    bounds.abort();
  }
  return Buffer.concat(chunks);
}
