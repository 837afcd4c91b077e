import { useQuery, type QueryKey, type UseQueryOptions, type UseQueryResult } from "@tanstack/react-query";
import { useCurrentUser } from "@/lib/auth/get-current-user";

/**
 * The root of every query key whose answer depends on the active company. Each feature builds its
 * company-scoped keys on `companyScope.of(companyId)`, so a company switch can mark exactly those
 * stale with `companyScope.all()` and leave the rest (the user's companies, notifications, platform data) alone.
 */
export const companyScope = {
  all: () => ["company"] as const,
  of: (companyId: number | null) => [...companyScope.all(), companyId] as const,
};

/** The signed-in user's active company, or null (nobody signed in, or a user without a company yet). */
export function useActiveCompany(): number | null {
  const { user } = useCurrentUser();
  return user?.companyId ?? null;
}

/**
 * A query about the active company: `options` builds it for that company's id. Without an active company
 * (or with `enabled: false`) it waits, fetching nothing; `isLoading` stays false then, so a screen shows its
 * loading state only while something is really on its way.
 */
export function useActiveCompanyQuery<TQueryFnData, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey>(
  options: (companyId: number) => UseQueryOptions<TQueryFnData, Error, TData, TQueryKey>,
  { enabled = true }: { enabled?: boolean } = {},
): UseQueryResult<TData, Error> {
  const companyId = useActiveCompany();
  // Without a company the options are built for id 0, which names none; the query is disabled then.
  return useQuery({ ...options(companyId ?? 0), enabled: enabled && companyId !== null });
}
