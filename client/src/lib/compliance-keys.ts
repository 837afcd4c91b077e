import type { QueryClient } from "@tanstack/react-query";
import { companyScope } from "@/lib/auth/active-company";

/**
 * The query key of a company's compliance verdicts. The compliance feature reads it, but every verdict is
 * computed from other features' records (meetings, documents, votes), so their mutations mark it stale too:
 * the key lives here, on the floor they all stand on, rather than inside one feature.
 */
export const complianceKeys = {
  /** GET /api/companies/:companyId/compliance. */
  of: (companyId: number | null) => [...companyScope.of(companyId), "compliance"] as const,
};

/** After a change to the company's record that a compliance rule reads: the dashboard asks for the verdicts again. */
export function markComplianceStale(queryClient: QueryClient, companyId: number | null): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: complianceKeys.of(companyId), exact: true });
}
