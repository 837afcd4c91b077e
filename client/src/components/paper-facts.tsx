import { FileDiff } from "lucide-react";
import { Link } from "wouter";
import { readingTimeText } from "@shared/reading-time";
import { formatDayMonthTime } from "@/lib/format";
import { cn } from "@/lib/utils";

// What the library, the meeting page and the pack say about a paper that may have changed: its version, its length
// and whether it changed since the viewer read it.

/** The facts of a paper these read (a document object, a library row). */
export interface PaperFactsOf {
  id: number;
  name: string;
  version: number;
  replacedAt: string | null;
  pages: number | null;
  readingMinutes: number | null;
  changedSinceRead: boolean;
  /** When it changed since: the version the viewer last opened. */
  readVersion: number | null;
}

/** "v3 · replaced 2 Jun 14:05" (local time) for a paper replaced at least once; null for a first version. */
export function versionLine(paper: Pick<PaperFactsOf, "version" | "replacedAt">): string | null {
  if (paper.version <= 1) return null;
  return paper.replacedAt ? `v${paper.version} · replaced ${formatDayMonthTime(paper.replacedAt)}` : `v${paper.version}`;
}

/** "12 pages · 24 min", "1 page · 2 min"; null when the pages are not known (a file that is not a PDF). */
export function pagesLine(paper: Pick<PaperFactsOf, "pages" | "readingMinutes">): string | null {
  if (paper.pages == null) return null;
  const pages = `${paper.pages} ${paper.pages === 1 ? "page" : "pages"}`;
  return paper.readingMinutes == null ? pages : `${pages} · ${readingTimeText(paper.readingMinutes)}`;
}

/** What a director is told of the board's read receipts, beside the papers. */
export function readReceiptsLine(on: boolean): string {
  return on
    ? "Read receipts are on: the secretary can see whether you have opened each paper."
    : "Read receipts are off: nobody can see whether you have opened the papers.";
}

/** The "what changed" view of a paper between two versions. */
export function compareHref(id: number, from: number, to: number): string {
  return `/documents/${id}/compare?from=${from}&to=${to}`;
}

/** Where "changed since you read it" leads: what changed from the version the viewer last opened to the latest. */
export function changedSinceReadHref(paper: Pick<PaperFactsOf, "id" | "version" | "readVersion">): string {
  const from = paper.readVersion != null && paper.readVersion < paper.version ? paper.readVersion : paper.version - 1;
  return compareHref(paper.id, Math.max(1, from), paper.version);
}

/**
 * "Changed since you read it": a badge (an icon and words, not colour alone) linking to what changed from the version
 * the viewer last opened to the latest.
 */
export function ChangedSinceReadBadge({
  paper,
  className,
}: {
  paper: Pick<PaperFactsOf, "id" | "name" | "version" | "readVersion">;
  className?: string;
}) {
  return (
    <Link
      href={changedSinceReadHref(paper)}
      aria-label={`${paper.name} changed since you read it: see what changed`}
      className={cn(
        "inline-flex w-fit items-center gap-1 rounded-md border border-warning/60 bg-warning/15 px-2 py-0.5 text-xs font-medium text-foreground outline-none hover:bg-warning/25 focus-visible:ring-[3px] focus-visible:ring-ring/50 [&_svg]:size-3 [&_svg]:shrink-0",
        className,
      )}
    >
      <FileDiff aria-hidden />
      Changed since you read it
    </Link>
  );
}

/** A paper's version, length and changed flag, as one wrapping line of small text; nothing for a plain first version. */
export function PaperFacts({ paper, className }: { paper: PaperFactsOf; className?: string }) {
  const version = versionLine(paper);
  const pages = pagesLine(paper);
  if (!version && !pages && !paper.changedSinceRead) return null;
  return (
    <span className={cn("inline-flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground", className)}>
      {version && <span>{version}</span>}
      {pages && <span>{pages}</span>}
      {paper.changedSinceRead && <ChangedSinceReadBadge paper={paper} />}
    </span>
  );
}

/**
 * The papers changed since the viewer read them, each by name with its badge; nothing when none has. Named by
 * `labelledBy` (a visible heading) or else by its own words.
 */
export function ChangedPapersList({
  papers,
  labelledBy,
  className,
}: {
  papers: readonly Pick<PaperFactsOf, "id" | "name" | "version" | "readVersion">[];
  labelledBy?: string;
  className?: string;
}) {
  if (papers.length === 0) return null;
  return (
    <ul
      aria-labelledby={labelledBy}
      aria-label={labelledBy ? undefined : "Changed since you read them"}
      className={cn("flex flex-wrap gap-x-3 gap-y-1", className)}
    >
      {papers.map((paper) => (
        <li key={paper.id} className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <span className="min-w-0 break-words">{paper.name}</span>
          <ChangedSinceReadBadge paper={paper} />
        </li>
      ))}
    </ul>
  );
}
