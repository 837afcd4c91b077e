import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Company, CompanyProfileInput } from "@shared/companies";
import * as api from "@shared/api/companies";
import { callApi } from "@/lib/api-client";
import { companyKeys } from "@/features/companies/api/company-keys";

/** PUT /api/companies/:companyId with the profile fields → the updated company. */
export function updateCompany(companyId: number, input: CompanyProfileInput): Promise<Company> {
  return callApi(api.updateCompany, { params: { companyId }, body: input });
}

export function useUpdateCompany(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CompanyProfileInput) => updateCompany(companyId, input),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: companyKeys.settings(companyId), exact: true }),
        // The switcher shows the name and logo.
        queryClient.invalidateQueries({ queryKey: companyKeys.list(), exact: true }),
      ]),
  });
}
