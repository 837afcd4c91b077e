import { queryOptions } from "@tanstack/react-query";
import type { CompanySettings } from "@shared/companies";
import * as api from "@shared/api/companies";
import { callApi } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { companyKeys } from "@/features/companies/api/company-keys";

/** GET /api/companies/:companyId/settings → {company, members, invitations?}. */
export function getCompanySettings(companyId: number): Promise<CompanySettings> {
  return callApi(api.getCompanySettings, { params: { companyId } });
}

export const companySettingsQueryOptions = (companyId: number) =>
  queryOptions({ queryKey: companyKeys.settings(companyId), queryFn: () => getCompanySettings(companyId) });

/** The active company's settings. */
export function useCompanySettings() {
  return useActiveCompanyQuery(companySettingsQueryOptions);
}
