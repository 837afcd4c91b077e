import { useEffect, useMemo, useRef, useState, type MouseEvent } from "react";
import { useLocation, useSearch } from "wouter";
import {
  emptySearchMessage,
  maxSearchQueryLength,
  morePagesMatchedMessage,
  unsearchedReasonLabels,
  type SearchPage,
  type SearchResult,
} from "@shared/search";
import { LoadError } from "@/components/load-error";
import { PageHeader } from "@/components/page-header";
import { SearchInput } from "@/components/search-input";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { serverMessageOf } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { cn } from "@/lib/utils";
import { useSearchResults } from "@/features/search/api/search";
import type { SearchParams } from "@/features/search/api/search-keys";
import { SearchFilters, type MeetingChoice } from "@/features/search/components/search-filters";
import { SearchResultContent } from "@/features/search/components/search-result";
import { searchDelayMs, searchFromAddress, searchPageHref, searchText } from "@/features/search/lib/search-address";

export interface SearchPageProps {
  /** The active company's meetings, for the meeting filter (none: no filter). */
  meetings: readonly MeetingChoice[];
  hrefOf: (result: SearchResult, query: string) => string;
  onOpenResult: (result: SearchResult, href: string) => void;
  manyBoards: boolean;
}

/**
 * /search: the query and its filters live in the address (a search can be linked to, and survives a reload); the
 * results come best first, a page at a time, with the papers the search could not look into named under them.
 */
export function SearchPageView({ meetings, hrefOf, onOpenResult, manyBoards }: SearchPageProps) {
  const [, navigate] = useLocation();
  const address = useSearch();
  const params = useMemo(() => searchFromAddress(address), [address]);
  const search = useSearchResults(params);
  const go = (next: SearchParams) => navigate(searchPageHref(next), { replace: true });

  // The box's text; the address takes it once typing pauses, and the box follows the address when it changes otherwise.
  const [text, setText] = useState(params.q);
  const [addressQ, setAddressQ] = useState(params.q);
  if (params.q !== addressQ) {
    setAddressQ(params.q);
    if (searchText(text) !== params.q) setText(params.q);
  }
  const typed = useDebouncedValue(searchText(text), searchDelayMs);
  const lastTyped = useRef(typed);
  useEffect(() => {
    if (typed === lastTyped.current) return;
    lastTyped.current = typed;
    if (typed !== params.q) navigate(searchPageHref({ ...params, q: typed }), { replace: true });
  }, [typed, params, navigate]);

  return (
    <div className="grid gap-6">
      <PageHeader title="Search" description="The board's papers, minutes, resolutions, agenda items, action items and meetings." />
      <form role="search" onSubmit={(event) => event.preventDefault()} className="grid gap-4">
        <SearchInput
          label="Search the board's record"
          value={text}
          maxLength={maxSearchQueryLength}
          placeholder="Search…"
          autoComplete="off"
          onChange={(event) => setText(event.target.value)}
          className="max-w-none"
        />
        <SearchFilters params={params} onChange={(change) => go({ ...params, ...change })} meetings={meetings} manyBoards={manyBoards} />
      </form>
      {params.q ? (
        <SearchResults params={params} search={search} hrefOf={hrefOf} onOpenResult={onOpenResult} />
      ) : (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">{emptySearchMessage}.</p>
      )}
    </div>
  );
}

function SearchResults({
  params,
  search,
  hrefOf,
  onOpenResult,
}: {
  params: SearchParams;
  search: ReturnType<typeof useSearchResults>;
  hrefOf: SearchPageProps["hrefOf"];
  onOpenResult: SearchPageProps["onOpenResult"];
}) {
  const activeCompany = useActiveCompany();
  const pages = search.data?.pages ?? [];
  const results = pages.flatMap((page) => page.results);

  if (search.isError && !search.isFetching && pages.length === 0) {
    return <LoadError message={serverMessageOf(search.error) ?? "The search failed."} onRetry={() => void search.refetch()} />;
  }
  if (search.isPending) {
    return (
      <div className="grid gap-2" aria-busy="true" aria-label="Searching">
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} className="h-20 rounded-lg" />
        ))}
      </div>
    );
  }
  const open = (event: MouseEvent<HTMLAnchorElement>, result: SearchResult, href: string) => {
    // A click with a modifier opens a new tab, as a link does; a plain one opens the result here (another board's first switched to).
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    onOpenResult(result, href);
  };
  return (
    <div className={cn("grid gap-4", search.isPlaceholderData && "opacity-60")} aria-busy={search.isPlaceholderData}>
      {results.length === 0 ? (
        <p role="status" className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
          No results for “{params.q}”
        </p>
      ) : (
        <ol className="grid gap-2" aria-label="Results">
          {results.map((result) => {
            const href = hrefOf(result, params.q);
            return (
              <li key={`${result.kind}-${result.id}-${result.page ?? 0}`}>
                <a
                  href={href}
                  onClick={(event) => open(event, result, href)}
                  className="block rounded-lg border bg-card p-3 outline-none hover:bg-accent/60 focus-visible:ring-[3px] focus-visible:ring-ring/50"
                >
                  <SearchResultContent result={result} otherBoard={activeCompany !== null && result.companyId !== activeCompany} />
                </a>
              </li>
            );
          })}
        </ol>
      )}
      {search.hasNextPage && (
        <div>
          <Button type="button" variant="outline" onClick={() => void search.fetchNextPage()} disabled={search.isFetchingNextPage}>
            {search.isFetchingNextPage ? "Loading…" : "Load more"}
          </Button>
        </div>
      )}
      {search.isFetchNextPageError && (
        <p role="alert" className="text-sm text-destructive">
          {serverMessageOf(search.error) ?? "Could not load more results. Please try again."}
        </p>
      )}
      {pages[0]?.morePagesMatched && <p className="text-sm text-muted-foreground">{morePagesMatchedMessage}</p>}
      <UnsearchedPapers pages={pages} />
    </div>
  );
}

/** The papers the search could not look into (no text layer, not read yet, unreadable), each once. */
function UnsearchedPapers({ pages }: { pages: readonly SearchPage[] }) {
  const papers = [...new Map(pages.flatMap((page) => page.unsearched).map((paper) => [paper.documentId, paper])).values()];
  if (papers.length === 0) return null;
  return (
    <section aria-labelledby="unsearched-heading" className="grid gap-2 rounded-lg border border-dashed p-4 text-sm">
      <h2 id="unsearched-heading" className="font-medium">
        Not searched
      </h2>
      <ul className="grid gap-1 text-muted-foreground">
        {papers.map((paper) => (
          <li key={paper.documentId} className="break-words">
            <span className="font-medium text-foreground">{paper.title}</span> was not searched: {unsearchedReasonLabels[paper.reason]}
          </li>
        ))}
      </ul>
    </section>
  );
}
