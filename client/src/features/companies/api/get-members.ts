import { queryOptions } from "@tanstack/react-query";
import type { CompanyMember } from "@shared/companies";
import * as api from "@shared/api/companies";
import { callApi } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { companyKeys } from "@/features/companies/api/company-keys";

/** GET /api/companies/:companyId/members → the company's members, with the other boards each sits on. */
export function getMembers(companyId: number): Promise<CompanyMember[]> {
  return callApi(api.listMembers, { params: { companyId } });
}

export const membersQueryOptions = (companyId: number) =>
  queryOptions({ queryKey: companyKeys.members(companyId), queryFn: () => getMembers(companyId) });

/** The active company's members; `enabled: false` holds the request back (e.g. until a dialog that lists them opens). */
export function useMembers({ enabled = true }: { enabled?: boolean } = {}) {
  return useActiveCompanyQuery(membersQueryOptions, { enabled });
}
