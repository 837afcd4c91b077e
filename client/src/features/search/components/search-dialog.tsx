import { Search } from "lucide-react";
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { Link } from "wouter";
import { maxSearchQueryLength, type SearchResult } from "@shared/search";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { serverMessageOf } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { cn } from "@/lib/utils";
import { useSearchResults } from "@/features/search/api/search";
import type { SearchParams } from "@/features/search/api/search-keys";
import { SearchResultContent } from "@/features/search/components/search-result";
import { searchDelayMs, searchPageHref, searchText } from "@/features/search/lib/search-address";

export interface SearchDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where a result opens, for the query that found it. */
  hrefOf: (result: SearchResult, query: string) => string;
  /** Opens a result (the dialog is closed first). */
  onOpenResult: (result: SearchResult, href: string) => void;
  /** The user sits on more than one board: the search may take in all of them. */
  manyBoards: boolean;
}

/**
 * The search dialog (Ctrl-K or the header's Search): results as the user types, best first; the arrow keys move
 * through them (a listbox the search box controls), Enter opens one, "See all results" opens the search page.
 */
export function SearchDialog({ open, onOpenChange, hrefOf, onOpenResult, manyBoards }: SearchDialogProps) {
  const ids = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState("");
  const [allBoards, setAllBoards] = useState(false);
  const q = useDebouncedValue(searchText(text), searchDelayMs);
  const params = useMemo<SearchParams>(() => ({ q, scope: allBoards ? "all" : undefined }), [q, allBoards]);
  const search = useSearchResults(params);
  const activeCompany = useActiveCompany();
  const results = q ? (search.data?.pages[0]?.results ?? []) : [];
  // Results of an earlier query (the one typed now is not asked yet, or not answered): shown dimmed, never opened by Enter.
  const stale = search.isPlaceholderData || searchText(text) !== q;
  const unsearched = q ? (search.data?.pages[0]?.unsearched.length ?? 0) : 0;
  const morePagesMatched = q !== "" && search.data?.pages[0]?.morePagesMatched === true;
  // The highlighted result, for the results it was chosen among: new results start at the best one.
  const [chosen, setChosen] = useState({ among: params, index: 0 });
  const active = chosen.among === params && chosen.index < results.length ? chosen.index : 0;
  const optionId = (index: number) => `${ids}-result-${index}`;

  useEffect(() => {
    if (results.length > 0) document.getElementById(optionId(active))?.scrollIntoView({ block: "nearest" });
    // Only a move of the highlight scrolls; the id prefix never changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, results.length]);

  const openResult = (result: SearchResult) => {
    onOpenChange(false);
    onOpenResult(result, hrefOf(result, q));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (results.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setChosen({ among: params, index: (active + step + results.length) % results.length });
    } else if (event.key === "Enter") {
      event.preventDefault();
      const result = results[active];
      if (result && !stale) openResult(result);
    }
  };

  const all = searchPageHref({ q: searchText(text), scope: allBoards ? "all" : undefined });
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="top-4 flex max-h-[calc(100dvh-2rem)] translate-y-0 flex-col gap-0 overflow-hidden p-0 sm:top-[10vh] sm:max-h-[80vh] sm:max-w-2xl"
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          inputRef.current?.focus();
          inputRef.current?.select();
        }}
      >
        <DialogTitle className="sr-only">Search</DialogTitle>
        <DialogDescription className="sr-only">
          Papers, minutes, resolutions, agenda items, action items and meetings. Arrow keys move through the results, Enter opens one.
        </DialogDescription>
        <div className="flex items-center gap-2 border-b px-4 pr-12">
          <Search className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          <input
            ref={inputRef}
            type="search"
            role="combobox"
            aria-label="Search the board's record"
            aria-expanded={results.length > 0}
            aria-controls={`${ids}-results`}
            aria-autocomplete="list"
            aria-activedescendant={results.length > 0 ? optionId(active) : undefined}
            autoComplete="off"
            maxLength={maxSearchQueryLength}
            placeholder="Search papers, minutes, resolutions…"
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
            className="h-14 min-w-0 flex-1 bg-transparent text-base outline-none placeholder:text-muted-foreground [&::-webkit-search-cancel-button]:hidden"
          />
        </div>
        {manyBoards && (
          <div className="flex items-center gap-2 border-b px-4 py-2">
            <Switch id={`${ids}-all`} checked={allBoards} onCheckedChange={setAllBoards} />
            <Label htmlFor={`${ids}-all`} className="text-sm font-normal">
              All my boards
            </Label>
          </div>
        )}
        <div className="min-h-0 overflow-y-auto">
          <ul
            id={`${ids}-results`}
            role="listbox"
            aria-label="Results"
            className={cn("grid gap-0.5 p-2 empty:hidden", stale && "opacity-60")}
          >
            {results.map((result, index) => (
              <li
                key={`${result.kind}-${result.id}-${result.page ?? 0}`}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                onClick={() => openResult(result)}
                onMouseMove={() => index !== active && setChosen({ among: params, index })}
                className="cursor-pointer rounded-md px-3 py-2.5 aria-selected:bg-accent aria-selected:text-accent-foreground"
              >
                <SearchResultContent compact result={result} otherBoard={activeCompany !== null && result.companyId !== activeCompany} />
              </li>
            ))}
          </ul>
          <DialogState q={q} typed={searchText(text) !== ""} stale={stale} search={search} count={results.length} />
        </div>
        {q && (
          <div className="flex flex-wrap items-center justify-between gap-2 border-t px-4 py-2.5 text-sm">
            <span className="text-muted-foreground">
              {[
                unsearched > 0 && `${unsearched} ${unsearched === 1 ? "paper was" : "papers were"} not searched`,
                morePagesMatched && "Many pages match: narrow it on the results page",
              ]
                .filter(Boolean)
                .join(" · ")}
            </span>
            <Link href={all} onClick={() => onOpenChange(false)} className="font-medium text-primary underline-offset-4 hover:underline">
              See all results
            </Link>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** What the dialog says besides its results: what to type, that it is searching, that nothing matched, or why it failed. */
function DialogState({
  q,
  typed,
  stale,
  search,
  count,
}: {
  q: string;
  typed: boolean;
  stale: boolean;
  search: ReturnType<typeof useSearchResults>;
  count: number;
}) {
  const className = "px-4 py-8 text-center text-sm text-muted-foreground";
  if (!typed) return <p className={className}>Search papers, minutes, resolutions, agenda items, action items and meetings.</p>;
  if (search.isError && !search.isFetching) {
    return (
      <div role="alert" className="grid justify-items-center gap-3 px-4 py-8 text-sm">
        <p className="text-destructive">{serverMessageOf(search.error) ?? "The search failed."}</p>
        <Button type="button" variant="outline" size="sm" onClick={() => void search.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (!q || (search.isPending && count === 0)) {
    return (
      <p role="status" className={className}>
        Searching…
      </p>
    );
  }
  if (count === 0 && !stale) {
    return (
      <p role="status" className={className}>
        No results for “{q}”
      </p>
    );
  }
  return null;
}
