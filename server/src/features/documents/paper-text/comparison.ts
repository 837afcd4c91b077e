// What changed between two versions of a paper: computed once per pair (in a text worker), then kept.
import { and, eq, inArray } from "drizzle-orm";
import { sameVersionsMessage, type Comparison } from "../../../../../shared/paper-versions";
import { documentComparisons, documentVersions } from "../../../db/schema";
import { badRequest, notFound } from "../../../http/errors";
import { textKindOf } from "./extract";
import { runTextJob } from "./text-pool";
import { versionTexts, type TextDeps } from "./version-text";

/**
 * Two versions compared: two PDFs with text page by page; any other pair that both have text (text and Word files)
 * line by line; anything else (images, scanned papers) whether the bytes differ. 400 for one version twice, 404 for
 * a version the paper does not have, 503 while a version's text could not be read.
 */
export async function compareVersions(deps: TextDeps, documentId: number, from: number, to: number): Promise<Comparison> {
  if (from === to) throw badRequest(sameVersionsMessage);
  const versions = await deps.db
    .select({ version: documentVersions.version, fileType: documentVersions.fileType, sha256: documentVersions.sha256 })
    .from(documentVersions)
    .where(and(eq(documentVersions.documentId, documentId), inArray(documentVersions.version, [from, to])));
  const before = versions.find((row) => row.version === from);
  const after = versions.find((row) => row.version === to);
  if (!before || !after) throw notFound("This paper has no such version");

  // Asked for again while it is computed (a director's double click, many members at once): computed once. The kept
  // comparison is looked up inside the shared promise, so one asked for as another ends finds it stored.
  const key = `${documentId}:${from}:${to}`;
  let computing = running.get(key);
  if (!computing) {
    computing = keptOrComputed(deps, documentId, before, after).finally(() => running.delete(key));
    running.set(key, computing);
  }
  return computing;
}

/** Comparisons being computed in this process, by paper and pair. */
const running = new Map<string, Promise<Comparison>>();

async function keptOrComputed(deps: TextDeps, documentId: number, before: VersionFacts, after: VersionFacts): Promise<Comparison> {
  const [kept] = await deps.db
    .select({ result: documentComparisons.result })
    .from(documentComparisons)
    .where(
      and(
        eq(documentComparisons.documentId, documentId),
        eq(documentComparisons.fromVersion, before.version),
        eq(documentComparisons.toVersion, after.version),
      ),
    );
  if (kept) return kept.result as Comparison;
  const result = await compute(deps, documentId, before, after);
  await deps.db
    .insert(documentComparisons)
    .values({ documentId, fromVersion: before.version, toVersion: after.version, result, computedAt: deps.clock.now() })
    .onConflictDoNothing();
  return result;
}

interface VersionFacts {
  version: number;
  fileType: string;
  sha256: string | null;
}

async function compute(deps: TextDeps, documentId: number, before: VersionFacts, after: VersionFacts): Promise<Comparison> {
  const beforeKind = textKindOf(before.fileType);
  const afterKind = textKindOf(after.fileType);
  if (beforeKind !== "none" && afterKind !== "none") {
    const beforeTexts = await versionTexts(deps, documentId, before.version);
    const afterTexts = await versionTexts(deps, documentId, after.version);
    if (beforeTexts && afterTexts) {
      const mode = beforeKind === "pdf" && afterKind === "pdf" ? "pages" : "lines";
      try {
        return await runTextJob({ kind: "compare", mode, before: beforeTexts, after: afterTexts });
      } catch (error) {
        // Past the worker's time or memory (or its failure): the same pair would fail the same way again, so what is
        // kept is what can still be said. Never a 500, never the same costly job on every request.
        deps.logger.warn({ err: error, documentId }, "comparing two versions failed; answered whether the file changed");
      }
    }
  }
  // Without text on both sides, all that can be said is whether the file changed.
  return { changed: before.sha256 == null || before.sha256 !== after.sha256 };
}
