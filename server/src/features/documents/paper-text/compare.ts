// What changed between two versions' texts: pages aligned, then lines diffed. Runs in a text worker (text.worker.ts),
// never on the thread that answers requests: a long paper's alignment is quadratic in its pages.
import { diffArrays } from "diff";
import type { ComparedLine, ComparedPage } from "../../../../../shared/paper-versions";

/** Two pages are the same page, changed, when at least this share of their word pairs is common to both. */
export const pageMatchThreshold = 0.5;

/**
 * The bounds on what is compared, so a hostile or huge paper costs a bounded time: the lines of a page (or of a
 * text file) diffed, the edits a diff may find before it gives up (then it answers all removed, all added), and the
 * pages aligned (the ones beyond are paired by position).
 */
export const compareLimits = { maxLines: 5_000, maxEditLength: 2_000, maxAlignedPages: 1_500 };

export const linesOf = (text: string): string[] => (text === "" ? [] : text.split("\n")).slice(0, compareLimits.maxLines);

/** A diff of two lists of lines; past its bound, every old line removed and every new line added. */
export function diffLines(before: string[], after: string[]): ComparedLine[] {
  const oldLines = before.slice(0, compareLimits.maxLines);
  const newLines = after.slice(0, compareLimits.maxLines);
  const changes = diffArrays(oldLines, newLines, { maxEditLength: compareLimits.maxEditLength });
  if (!changes) {
    return [...oldLines.map((text) => ({ op: "del" as const, text })), ...newLines.map((text) => ({ op: "add" as const, text }))];
  }
  return changes.flatMap((change) =>
    change.value.map((text) => ({ op: change.added ? ("add" as const) : change.removed ? ("del" as const) : ("same" as const), text })),
  );
}

/** A page's word pairs (its single word when it has one): what the similarity of two pages is measured on. */
function shinglesOf(text: string): Set<string> {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length < 2) return new Set(words);
  const pairs = new Set<string>();
  for (let n = 1; n < words.length; n += 1) pairs.add(`${words[n - 1]} ${words[n]}`);
  return pairs;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let common = 0;
  for (const item of small) if (large.has(item)) common += 1;
  return common / (a.size + b.size - common);
}

/** The pairs (old page index, new page index) that align, in order: the alignment of greatest total similarity. */
function align(before: string[], after: string[]): [number, number][] {
  const n = before.length;
  const m = after.length;
  const a = before.map(shinglesOf);
  const b = after.map(shinglesOf);
  const similarity = (i: number, j: number) => {
    if (before[i] === after[j]) return 2;
    const s = jaccard(a[i]!, b[j]!);
    return s >= pageMatchThreshold ? s : 0;
  };
  // score[i][j]: the best total over old pages from i and new pages from j; a flat array (n+1)×(m+1).
  const width = m + 1;
  const score = new Float64Array((n + 1) * width);
  const step = new Uint8Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      const skipOld = score[(i + 1) * width + j]!;
      const skipNew = score[i * width + j + 1]!;
      const s = similarity(i, j);
      const pair = s > 0 ? s + score[(i + 1) * width + j + 1]! : -1;
      const best = Math.max(pair, skipOld, skipNew);
      score[i * width + j] = best;
      step[i * width + j] = best === pair ? 0 : best === skipOld ? 1 : 2;
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    const move = step[i * width + j];
    if (move === 0) pairs.push([i++, j++]);
    else if (move === 1) i += 1;
    else j += 1;
  }
  return pairs;
}

/**
 * Two PDFs page by page: each new page matched to an old one (same or changed, with its lines diffed) or added, and
 * each old page left unmatched removed, placed where it was: just after the page its predecessor became.
 */
export function comparePages(before: string[], after: string[]): ComparedPage[] {
  const limit = compareLimits.maxAlignedPages;
  const pairs = align(before.slice(0, limit), after.slice(0, limit));
  // Pages past the bound are paired by position.
  for (let k = limit; k < Math.min(before.length, after.length); k += 1) pairs.push([k, k]);
  const newOf = new Map(pairs.map(([i, j]) => [j, i]));
  const matchedOld = new Set(pairs.map(([i]) => i));
  const result: ComparedPage[] = [];
  // The old pages left unmatched from `start` up to the next matched one: each removed, placed where it was.
  const removedFrom = (start: number) => {
    for (let k = start; k < before.length && !matchedOld.has(k); k += 1) {
      result.push({ fromPage: k + 1, toPage: null, change: "removed" });
    }
  };
  removedFrom(0);
  for (let j = 0; j < after.length; j += 1) {
    const i = newOf.get(j);
    if (i === undefined) {
      result.push({ fromPage: null, toPage: j + 1, change: "added" });
      continue;
    }
    const same = before[i] === after[j];
    result.push({
      fromPage: i + 1,
      toPage: j + 1,
      change: same ? "same" : "changed",
      ...(same ? {} : { lines: diffLines(linesOf(before[i]!), linesOf(after[j]!)) }),
    });
    removedFrom(i + 1);
  }
  return result;
}
