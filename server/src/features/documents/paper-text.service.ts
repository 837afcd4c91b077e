// A paper's text and what changed between its versions, for the documents feature's routes and for other features
// (the replacement of a paper queues its new version's text; private notes follow their page to a new version).
import { and, eq, inArray } from "drizzle-orm";
import { startSweep } from "../../clock";
import { documentVersions } from "../../db/schema";
import { compareVersions } from "./paper-text/comparison";
import { readVersionText, versionsToRead, versionTexts, type TextDeps } from "./paper-text/version-text";

export { compareVersions } from "./paper-text/comparison";
export { textReadsSettled, textUnavailable } from "./paper-text/version-text";

/** Versions the sweep reads each minute: the text is background work, a few at a time. */
const sweepBatch = 3;

/** Reads a version's text in the background (in a text worker); a failure is logged and left to the sweep. */
export function queueVersionText(deps: TextDeps, documentId: number, version: number): void {
  readVersionText(deps, documentId, version).catch((error: unknown) =>
    deps.logger.warn({ err: error, documentId, version }, "reading a paper version's text failed"),
  );
}

/** One sweep: reads the text of a few versions still pending, or failed fewer than three times. Answers how many were read. */
export async function readPendingTexts(deps: TextDeps, limit = sweepBatch): Promise<number> {
  let read = 0;
  for (const { documentId, version } of await versionsToRead(deps, limit)) {
    try {
      await readVersionText(deps, documentId, version);
      read += 1;
    } catch {
      // Counted against the version's attempts; the next sweep tries again (up to three times in all).
    }
  }
  return read;
}

/** Every minute: the text of versions not read yet (papers uploaded before their text was kept, or whose reading failed). */
export function startPaperTextSweep(deps: TextDeps, intervalMs = 60_000): { stop: () => void } {
  return startSweep(deps.logger, intervalMs, () => readPendingTexts(deps), {
    handled: "paper versions' text read",
    failed: "paper text sweep failed",
  });
}

/**
 * A version's text page by page, read now if still pending; null when it has none (an image, a Word 97 file, a
 * scanned PDF). Throws 404 for a version the paper does not have, 503 when its text could not be read.
 */
export function pageTextsOf(deps: TextDeps, documentId: number, version: number): Promise<string[] | null> {
  return versionTexts(deps, documentId, version);
}

/**
 * Where each page of `fromVersion` went in `toVersion`: the page whose text matches it best, or null when it is gone
 * (from the versions' comparison, computed once). A paper without text on both sides (an image, a scanned PDF) keeps
 * its page numbers: each page maps to the same page if the new version has it. Errors as `compareVersions`.
 */
export async function pageMapping(
  deps: TextDeps,
  documentId: number,
  fromVersion: number,
  toVersion: number,
): Promise<Map<number, number | null>> {
  const mapping = new Map<number, number | null>();
  if (fromVersion === toVersion) {
    const [row] = await pagesOf(deps, documentId, [fromVersion]);
    for (let page = 1; page <= (row?.pages ?? 1); page += 1) mapping.set(page, page);
    return mapping;
  }
  const comparison = await compareVersions(deps, documentId, fromVersion, toVersion);
  if ("pages" in comparison) {
    for (const page of comparison.pages) if (page.fromPage != null) mapping.set(page.fromPage, page.toPage);
    return mapping;
  }
  if ("lines" in comparison) {
    // A text or Word file is one page.
    mapping.set(1, 1);
    return mapping;
  }
  const rows = await pagesOf(deps, documentId, [fromVersion, toVersion]);
  const fromPages = rows.find((row) => row.version === fromVersion)?.pages ?? 1;
  const toPages = rows.find((row) => row.version === toVersion)?.pages ?? 1;
  for (let page = 1; page <= fromPages; page += 1) mapping.set(page, page <= toPages ? page : null);
  return mapping;
}

function pagesOf({ db }: TextDeps, documentId: number, versions: number[]) {
  return db
    .select({ version: documentVersions.version, pages: documentVersions.pages })
    .from(documentVersions)
    .where(and(eq(documentVersions.documentId, documentId), inArray(documentVersions.version, versions)));
}
