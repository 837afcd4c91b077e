import { maxSearchQueryLength, searchKinds, type SearchKind } from "@shared/search";
import type { SearchParams } from "@/features/search/api/search-keys";

/** How long typing pauses before the search is asked for. */
export const searchDelayMs = 200;

/** What is searched for, as typed: control characters (a pasted tab) as spaces, the ends trimmed, at most the server's length. */
export function searchText(typed: string): string {
  return typed
    .replace(/\p{Cc}/gu, " ")
    .trim()
    .slice(0, maxSearchQueryLength);
}

const day = /^\d{4}-\d{2}-\d{2}$/;

/** A search as the search page's address holds it; what does not parse is left out, never sent. */
export function searchFromAddress(query: string): SearchParams {
  const address = new URLSearchParams(query);
  const kind = address.get("kind");
  const meetingId = Number(address.get("meetingId"));
  const from = address.get("from");
  const to = address.get("to");
  return {
    q: searchText(address.get("q") ?? ""),
    scope: address.get("scope") === "all" ? "all" : undefined,
    kind: searchKinds.includes(kind as SearchKind) ? (kind as SearchKind) : undefined,
    meetingId: Number.isInteger(meetingId) && meetingId > 0 && meetingId <= 2_147_483_647 ? meetingId : undefined,
    from: from && day.test(from) ? from : undefined,
    to: to && day.test(to) ? to : undefined,
  };
}

/** The search page's address for a search: only what is set, in a fixed order. */
export function searchPageHref(params: SearchParams): string {
  const address = new URLSearchParams();
  for (const name of ["q", "scope", "kind", "meetingId", "from", "to"] as const) {
    const value = params[name];
    if (value !== undefined && value !== "") address.set(name, String(value));
  }
  const query = address.toString();
  return query ? `/search?${query}` : "/search";
}
