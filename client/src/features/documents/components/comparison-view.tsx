import type { ComparedLine, ComparedPage, Comparison } from "@shared/paper-versions";
import { cn } from "@/lib/utils";

// What changed between two versions, said in words as well as colour: each added line is an <ins> that reads
// "Added", each removed one a <del> that reads "Removed"; pages and runs of lines that did not change are folded.

/** Runs of unchanged lines longer than this are folded, keeping this many lines of context either side. */
const foldAfter = 6;
const context = 2;

function Line({ line }: { line: ComparedLine }) {
  if (line.op === "same")
    return <div className="px-2 py-0.5 break-words whitespace-pre-wrap text-muted-foreground">{line.text || " "}</div>;
  const added = line.op === "add";
  const Tag = added ? "ins" : "del";
  return (
    <Tag
      className={cn(
        "flex gap-2 px-2 py-0.5 break-words whitespace-pre-wrap no-underline",
        added ? "bg-success/15 text-foreground" : "bg-destructive/10 text-foreground line-through decoration-destructive/60",
      )}
    >
      <span aria-hidden className="w-3 shrink-0 font-semibold select-none">
        {added ? "+" : "−"}
      </span>
      <span className="sr-only">{added ? "Added: " : "Removed: "}</span>
      <span className="min-w-0">{line.text || " "}</span>
    </Tag>
  );
}

/** Lines in order, long unchanged runs folded behind a "N unchanged lines" toggle. */
export function Lines({ lines }: { lines: readonly ComparedLine[] }) {
  const blocks: ({ kind: "lines"; lines: ComparedLine[] } | { kind: "fold"; lines: ComparedLine[] })[] = [];
  let index = 0;
  while (index < lines.length) {
    let end = index;
    while (end < lines.length && lines[end]!.op === "same") end += 1;
    const run = lines.slice(index, end);
    if (run.length > foldAfter) {
      const head = index === 0 ? 0 : context;
      const tail = end === lines.length ? 0 : context;
      blocks.push({ kind: "lines", lines: run.slice(0, head) });
      blocks.push({ kind: "fold", lines: run.slice(head, run.length - tail) });
      blocks.push({ kind: "lines", lines: run.slice(run.length - tail) });
    } else if (run.length > 0) {
      blocks.push({ kind: "lines", lines: run });
    }
    let changedEnd = end;
    while (changedEnd < lines.length && lines[changedEnd]!.op !== "same") changedEnd += 1;
    if (changedEnd > end) blocks.push({ kind: "lines", lines: lines.slice(end, changedEnd) });
    index = changedEnd;
  }
  return (
    <div className="overflow-hidden rounded-md border font-mono text-sm">
      {blocks.map((block, key) =>
        block.kind === "fold" ? (
          <details key={key} className="border-y bg-muted/40">
            <summary className="cursor-pointer px-2 py-1 text-xs text-muted-foreground">{block.lines.length} unchanged lines</summary>
            {block.lines.map((line, at) => (
              <Line key={at} line={line} />
            ))}
          </details>
        ) : (
          block.lines.map((line, at) => <Line key={`${key}-${at}`} line={line} />)
        ),
      )}
    </div>
  );
}

const pageTitle = (page: ComparedPage) =>
  page.change === "added"
    ? `Page ${page.toPage} added`
    : page.change === "removed"
      ? `Page ${page.fromPage} removed`
      : page.change === "changed"
        ? `Page ${page.toPage} changed`
        : `Page ${page.toPage} unchanged`;

/** A PDF's pages: each added, removed or changed page with its lines; runs of unchanged pages folded. */
function Pages({ pages }: { pages: readonly ComparedPage[] }) {
  const groups: ComparedPage[][] = [];
  for (const page of pages) {
    const last = groups.at(-1);
    if (page.change === "same" && last?.[0]?.change === "same") last.push(page);
    else groups.push([page]);
  }
  return (
    <ol className="grid gap-4" aria-label="Pages">
      {groups.map((group) => {
        const first = group[0]!;
        if (first.change === "same") {
          const last = group.at(-1)!;
          const label = group.length === 1 ? `Page ${first.toPage} unchanged` : `Pages ${first.toPage}–${last.toPage} unchanged`;
          return (
            <li key={`same-${first.toPage}`} className="text-sm text-muted-foreground">
              {label}
            </li>
          );
        }
        return (
          <li key={`${first.change}-${first.fromPage}-${first.toPage}`} className="grid gap-2">
            <h2 className="font-medium">{pageTitle(first)}</h2>
            {first.lines && first.lines.length > 0 && <Lines lines={first.lines} />}
          </li>
        );
      })}
    </ol>
  );
}

/** Nothing changed: every page the same, every line the same, or the file unchanged. */
export function isUnchanged(comparison: Comparison): boolean {
  if ("pages" in comparison) return comparison.pages.every((page) => page.change === "same");
  if ("lines" in comparison) return comparison.lines.every((line) => line.op === "same");
  return !comparison.changed;
}

/** A comparison as the server computed it: pages for PDFs, lines for text, or whether anything else changed. */
export function ComparisonView({ comparison }: { comparison: Comparison }) {
  if (isUnchanged(comparison)) return <p className="text-sm text-muted-foreground">Nothing changed between these versions.</p>;
  if ("pages" in comparison) return <Pages pages={comparison.pages} />;
  if ("lines" in comparison) return <Lines lines={comparison.lines} />;
  return (
    <p className="text-sm">The file changed. Its content cannot be compared line by line: open both versions to see the difference.</p>
  );
}
