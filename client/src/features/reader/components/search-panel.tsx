import { ChevronDown, ChevronUp } from "lucide-react";
import type { KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";
import type { SearchHit } from "@/features/reader/lib/search";

/** The search box, the hits by page (Enter: next, Shift+Enter: previous) and where the search is. */
export function SearchPanel({
  query,
  onQuery,
  hits,
  searching,
  pagesSearched,
  pageCount,
  active,
  onActive,
}: {
  query: string;
  onQuery: (query: string) => void;
  hits: readonly SearchHit[];
  searching: boolean;
  pagesSearched: number;
  pageCount: number;
  active: number | null;
  onActive: (index: number) => void;
}) {
  const step = (direction: 1 | -1) => {
    if (hits.length === 0) return;
    onActive(active == null ? (direction === 1 ? 0 : hits.length - 1) : (active + direction + hits.length) % hits.length);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    step(event.shiftKey ? -1 : 1);
  };

  return (
    <div className="grid gap-2">
      <div className="flex items-center gap-1">
        <Input
          type="search"
          aria-label="Search in document"
          placeholder="Search"
          value={query}
          onChange={(event) => onQuery(event.target.value)}
          onKeyDown={onKeyDown}
          className="h-9"
        />
        <Button size="icon" variant="ghost" aria-label="Previous result" disabled={hits.length === 0} onClick={() => step(-1)}>
          <ChevronUp aria-hidden />
        </Button>
        <Button size="icon" variant="ghost" aria-label="Next result" disabled={hits.length === 0} onClick={() => step(1)}>
          <ChevronDown aria-hidden />
        </Button>
      </div>
      <p role="status" className="text-xs text-muted-foreground">
        {statusText({ query, hits, searching, pagesSearched, pageCount, active })}
      </p>
      {hits.length > 0 && (
        <ol aria-label="Search results" className="grid gap-1">
          {hits.map((hit, index) => (
            <li key={`${hit.page}-${hit.onPage}`}>
              <button
                type="button"
                aria-current={index === active ? "true" : undefined}
                onClick={() => onActive(index)}
                className={cn(
                  "w-full rounded-md px-2 py-1.5 text-left text-sm outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/60",
                  index === active && "bg-accent",
                )}
              >
                <span className="block text-xs font-medium text-muted-foreground">Page {hit.page}</span>
                <span className="line-clamp-2 break-words">
                  {hit.before}
                  <mark className="rounded-sm bg-amber-200 px-0.5 text-foreground dark:bg-amber-500/40">{hit.match}</mark>
                  {hit.after}
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function statusText(state: {
  query: string;
  hits: readonly SearchHit[];
  searching: boolean;
  pagesSearched: number;
  pageCount: number;
  active: number | null;
}): string {
  if (!state.query.trim()) return "";
  const found = state.hits.length === 1 ? "1 result" : `${state.hits.length} results`;
  if (state.searching) return `Searching… page ${state.pagesSearched} of ${state.pageCount}, ${found} so far`;
  if (state.hits.length === 0) return "No results";
  return state.active == null ? found : `Result ${state.active + 1} of ${state.hits.length}`;
}
