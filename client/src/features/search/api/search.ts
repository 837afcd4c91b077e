import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import * as api from "@shared/api/search";
import type { SearchPage } from "@shared/search";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { searchKeys, type SearchParams } from "@/features/search/api/search-keys";

/** GET /api/search → a page of results, best first, with its next cursor and the papers that could not be searched. */
export function searchRecord(params: SearchParams, cursor?: string): Promise<SearchPage> {
  return callApi(api.search, { query: { ...params, cursor } });
}

/**
 * The results of one search, a page at a time ("Load more" asks for the page after the last one's cursor). Each
 * search has its own key, so an answer to an earlier one is never shown as this one's; while a new search is on its
 * way the previous results stay (marked as stale by `isPlaceholderData`) rather than flashing empty at each key.
 * An empty query asks for nothing. The record changes as the board works: a search is asked again when it is shown again.
 */
export function useSearchResults(params: SearchParams) {
  const companyId = useActiveCompany();
  return useInfiniteQuery({
    queryKey: searchKeys.results(companyId, params),
    queryFn: ({ pageParam }) => searchRecord(params, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: params.q.trim() !== "",
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
