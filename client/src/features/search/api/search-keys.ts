import type { SearchKind, SearchScope } from "@shared/search";
import { companyScope } from "@/lib/auth/active-company";

/** What a search asks for, as the screens hold it: part of the results' key. */
export interface SearchParams {
  q: string;
  scope?: SearchScope;
  kind?: SearchKind;
  meetingId?: number;
  /** Days, YYYY-MM-DD. */
  from?: string;
  to?: string;
}

/** Under the active company's scope even for scope=all: a company switch changes what "company" means and which board is "another". */
export const searchKeys = {
  all: (companyId: number | null) => [...companyScope.of(companyId), "search"] as const,
  results: (companyId: number | null, params: SearchParams) => [...searchKeys.all(companyId), params] as const,
};
