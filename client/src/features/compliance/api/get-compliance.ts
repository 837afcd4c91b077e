import { queryOptions } from "@tanstack/react-query";
import { complianceGroupNames, type ComplianceGroup } from "@shared/compliance";
import * as api from "@shared/api/compliance";
import { callApi } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { complianceKeys } from "@/lib/compliance-keys";

/** GET /api/companies/:companyId/compliance → the Meetings, Documents and Resolutions groups, in that order. */
export function getCompliance(companyId: number): Promise<ComplianceGroup[]> {
  return callApi(api.getCompliance, { params: { companyId } });
}

/**
 * What the panels show while the verdicts are on their way: the three groups by name, with nothing checked
 * yet. The panels tell it apart by `isPlaceholderData` and draw it as loading, never as a score of 0.
 */
export const placeholderComplianceGroups: ComplianceGroup[] = complianceGroupNames.map((name) => ({ name, progress: 0, items: [] }));

export const complianceQueryOptions = (companyId: number) =>
  queryOptions({
    queryKey: complianceKeys.of(companyId),
    queryFn: () => getCompliance(companyId),
    placeholderData: placeholderComplianceGroups,
  });

/** The active company's compliance groups; the placeholder groups until the server answers. */
export function useCompliance() {
  return useActiveCompanyQuery(complianceQueryOptions);
}
