import { queryOptions, useQuery } from "@tanstack/react-query";
import type { CompanySettings } from "@shared/companies";
import { apiJson } from "@/lib/api-client";
import { companyKeys } from "@/features/companies/api/company-keys";

/** GET /api/companies/:companyId/settings → {company, members, invitations?}. */
export function getCompanySettings(companyId: number): Promise<CompanySettings> {
  return apiJson<CompanySettings>("GET", `/api/companies/${companyId}/settings`);
}

export const companySettingsQueryOptions = (companyId: number) =>
  queryOptions({ queryKey: companyKeys.settings(companyId), queryFn: () => getCompanySettings(companyId) });

export function useCompanySettings(companyId: number | null | undefined, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...companySettingsQueryOptions(companyId ?? 0), enabled: enabled && companyId != null });
}
