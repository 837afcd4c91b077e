import { queryOptions, useQuery } from "@tanstack/react-query";
import type { CompanyMember } from "@shared/companies";
import { apiJson } from "@/lib/api-client";
import { companyKeys } from "@/features/companies/api/company-keys";

/** GET /api/companies/:companyId/members → the company's members, with the other boards each sits on. */
export function getMembers(companyId: number): Promise<CompanyMember[]> {
  return apiJson<CompanyMember[]>("GET", `/api/companies/${companyId}/members`);
}

export const membersQueryOptions = (companyId: number) =>
  queryOptions({ queryKey: companyKeys.members(companyId), queryFn: () => getMembers(companyId) });

/** The members of a company; loaded only when there is a company (spec §7). */
export function useMembers(companyId: number | null | undefined) {
  return useQuery({
    ...membersQueryOptions(companyId ?? 0),
    enabled: companyId != null,
  });
}
