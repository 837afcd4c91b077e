import * as searchApi from "@shared/api/search";
import type { SearchPage, SearchResult } from "@shared/search";
import { handle, type FakeAnswer, type FakeRequest } from "@/testing/handle";

/** A search as the server reads its query. */
export type AskedSearch = FakeRequest<typeof searchApi.search>["query"];

/** A search result as GET /api/search answers it: a paper of Acme Holdings (company 1), found on page 4, unless told otherwise. */
export function buildSearchResult(fields: Partial<SearchResult> & Pick<SearchResult, "id">): SearchResult {
  return {
    kind: "document",
    companyId: 1,
    companyName: "Acme Holdings",
    title: "Q3 board paper",
    snippet: "<mark>Revenue</mark> grew four percent",
    page: 4,
    meetingId: null,
    at: "2026-05-20T10:00:00.000Z",
    ...fields,
  };
}

export function searchPage(results: SearchResult[], fields: Partial<SearchPage> = {}): SearchPage {
  return { results, nextCursor: null, morePagesMatched: false, unsearched: [], ...fields };
}

/** Serves the search with `answer` for each query, keeping every query the client sent (as the server reads it). */
type SearchAnswer = FakeAnswer<typeof searchApi.search>;

export function serveSearch(answer: (query: AskedSearch) => SearchAnswer | Promise<SearchAnswer>) {
  const asked: AskedSearch[] = [];
  const handler = handle(searchApi.search, async ({ query }) => {
    asked.push(query);
    return answer(query);
  });
  return { handler, asked };
}
