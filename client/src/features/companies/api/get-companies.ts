import { queryOptions, useQuery } from "@tanstack/react-query";
import type { CompanySummary } from "@shared/companies";
import * as api from "@shared/api/companies";
import { callApi } from "@/lib/api-client";
import { companyKeys } from "@/features/companies/api/company-keys";

/** GET /api/companies → the signed-in user's companies with their role in each. */
export function getCompanies(): Promise<CompanySummary[]> {
  return callApi(api.listCompanies);
}

export const companiesQueryOptions = () => queryOptions({ queryKey: companyKeys.list(), queryFn: getCompanies });

export function useCompanies() {
  return useQuery(companiesQueryOptions());
}
