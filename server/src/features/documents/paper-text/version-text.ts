// A version's text, read out of its file once (in a text worker) and kept page by page in `document_page_texts`.
import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { maxFileBytes } from "../../../../../shared/documents";
import type { ServiceDeps } from "../../../app-deps";
import { documentFiles, documentPageTexts, documents, documentVersions } from "../../../db/schema";
import { HttpError, notFound } from "../../../http/errors";
import { readFile } from "../documents.service";
import { textKindOf } from "./extract";
import { runTextJob } from "./text-pool";

export type TextDeps = ServiceDeps<"db" | "clock" | "appSecret" | "outbound" | "logger">;

/** A version whose text failed is tried again by the sweep until it has failed this many times. */
export const maxTextAttempts = 3;
/** Page texts written in one statement. */
const insertBatch = 500;

/** The text could not be read out of a version (yet): the client asks again later. */
export const textUnavailable = () =>
  new HttpError(503, "The text of this version could not be read yet; try again in a minute", { "Retry-After": "60" });

/** A version's type, its text's state, and where its bytes are (the latest version's may be only in `document_files`). */
async function versionRow({ db }: TextDeps, documentId: number, version: number) {
  const [row] = await db
    .select({
      fileType: documentVersions.fileType,
      pages: documentVersions.pages,
      textStatus: documentVersions.textStatus,
      latest: documents.version,
      storage: documentVersions.storage,
      location: documentVersions.location,
      storageKey: documentVersions.storageKey,
      bytes: documentVersions.bytes,
      file: {
        storage: documentFiles.storage,
        location: documentFiles.location,
        storageKey: documentFiles.storageKey,
        bytes: documentFiles.bytes,
      },
    })
    .from(documentVersions)
    .innerJoin(documents, eq(documents.id, documentVersions.documentId))
    .leftJoin(documentFiles, eq(documentFiles.documentId, documentVersions.documentId))
    .where(and(eq(documentVersions.documentId, documentId), eq(documentVersions.version, version)));
  return row;
}

type VersionRow = NonNullable<Awaited<ReturnType<typeof versionRow>>>;

/** The version's whole file, at most as large as an upload may be. */
async function bytesOf(deps: TextDeps, row: VersionRow): Promise<Buffer> {
  const own = row.storageKey || row.bytes;
  // A version stored before versions had their own place is the latest, in `document_files`.
  const place = own ? row : row.file;
  if (!place || !(place.storageKey || place.bytes)) throw new Error("the version's file is missing");
  const stream = await readFile(deps, {
    storage: place.storage,
    location: place.location,
    storageKey: place.storageKey ?? "",
    bytes: place.bytes,
  });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxFileBytes) {
      stream.destroy();
      throw new Error("the version's file is larger than an upload may be");
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Reads the text of one version and stores it (done, or none); a failure marks it failed and counts the attempt. */
async function extractVersion(deps: TextDeps, documentId: number, version: number): Promise<void> {
  const row = await versionRow(deps, documentId, version);
  if (!row || row.textStatus === "done" || row.textStatus === "none") return;
  const kind = textKindOf(row.fileType);
  try {
    const extracted = kind === "none" ? { texts: null, pages: null } : await extractFrom(deps, row, kind);
    const at = and(eq(documentVersions.documentId, documentId), eq(documentVersions.version, version));
    await deps.db.transaction(async (tx) => {
      await tx.delete(documentPageTexts).where(and(eq(documentPageTexts.documentId, documentId), eq(documentPageTexts.version, version)));
      const texts = extracted.texts ?? [];
      for (let start = 0; start < texts.length; start += insertBatch) {
        await tx
          .insert(documentPageTexts)
          .values(texts.slice(start, start + insertBatch).map((text, n) => ({ documentId, version, page: start + n + 1, text })));
      }
      const pages = row.pages ?? extracted.pages;
      await tx
        .update(documentVersions)
        .set({ textStatus: extracted.texts ? "done" : "none", pages })
        .where(at);
      // The paper's own page count is its latest version's.
      if (pages != null && row.latest === version) {
        await tx
          .update(documents)
          .set({ pages })
          .where(and(eq(documents.id, documentId), eq(documents.version, version), isNull(documents.pages)));
      }
    });
  } catch (error) {
    await deps.db
      .update(documentVersions)
      .set({ textStatus: "failed", textAttempts: sql`${documentVersions.textAttempts} + 1` })
      .where(and(eq(documentVersions.documentId, documentId), eq(documentVersions.version, version)));
    throw error;
  }
}

async function extractFrom(deps: TextDeps, row: VersionRow, kind: ReturnType<typeof textKindOf>) {
  const bytes = await bytesOf(deps, row);
  // A buffer of its own, so it can be handed over to the worker (a small Buffer may share its pool).
  const own = new Uint8Array(bytes.length);
  own.set(bytes);
  return runTextJob({ kind: "extract", textKind: kind, bytes: own.buffer });
}

/** Extractions under way in this process: a version asked for twice at once is read once. */
const running = new Map<string, Promise<void>>();

/** Reads a version's text unless it is being read already; settles when it is stored (or has failed). */
export function readVersionText(deps: TextDeps, documentId: number, version: number): Promise<void> {
  const key = `${documentId}:${version}`;
  const existing = running.get(key);
  if (existing) return existing;
  const started = extractVersion(deps, documentId, version).finally(() => running.delete(key));
  running.set(key, started);
  return started;
}

/** Settles once no text is being read in this process: what a test waits for before it counts queries. */
export async function textReadsSettled(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running.values()]);
}

/**
 * A version's text page by page; null when it has none (an image, a Word 97 file, a scanned PDF). Read now when
 * still pending; 503 when reading it failed; 404 when the paper has no such version.
 */
export async function versionTexts(deps: TextDeps, documentId: number, version: number): Promise<string[] | null> {
  const [state] = await deps.db
    .select({ status: documentVersions.textStatus })
    .from(documentVersions)
    .where(and(eq(documentVersions.documentId, documentId), eq(documentVersions.version, version)));
  if (!state) throw notFound("This paper has no such version");
  let status = state.status;
  if (status === "pending") {
    await readVersionText(deps, documentId, version).catch(() => undefined);
    const [after] = await deps.db
      .select({ status: documentVersions.textStatus })
      .from(documentVersions)
      .where(and(eq(documentVersions.documentId, documentId), eq(documentVersions.version, version)));
    status = after?.status ?? "failed";
  }
  if (status === "none") return null;
  if (status !== "done") throw textUnavailable();
  const rows = await deps.db
    .select({ text: documentPageTexts.text })
    .from(documentPageTexts)
    .where(and(eq(documentPageTexts.documentId, documentId), eq(documentPageTexts.version, version)))
    .orderBy(asc(documentPageTexts.page));
  return rows.map((row) => row.text);
}

/** The versions the sweep reads next: pending ones, and failed ones tried fewer than three times. Oldest first. */
export async function versionsToRead({ db }: TextDeps, limit: number) {
  return db
    .select({ documentId: documentVersions.documentId, version: documentVersions.version })
    .from(documentVersions)
    .where(
      or(
        eq(documentVersions.textStatus, "pending"),
        and(eq(documentVersions.textStatus, "failed"), lt(documentVersions.textAttempts, maxTextAttempts)),
      ),
    )
    .orderBy(asc(documentVersions.uploadedAt))
    .limit(limit);
}
