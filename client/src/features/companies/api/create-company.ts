import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { User } from "@shared/auth";
import type { Company, CompanyProfileInput } from "@shared/companies";
import * as api from "@shared/api/companies";
import { callApi } from "@/lib/api-client";
import { authKeys } from "@/lib/auth/auth-keys";
import { companyKeys } from "@/features/companies/api/company-keys";

/** POST /api/companies → the new company (the caller is its founder). */
export function createCompany(input: CompanyProfileInput): Promise<Company> {
  return callApi(api.createCompany, { body: input });
}

/** PUT /api/users/:id {companyId}: makes the company the user's active one; answers the user. */
export function linkUserToCompany(userId: number, companyId: number): Promise<User> {
  return callApi(api.linkUserToCompany, { params: { id: userId }, body: { companyId } });
}

export function useCreateCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCompany,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyKeys.list(), exact: true }),
  });
}

/** After creation: link the user to the new company; the answered user replaces the cached one. */
export function useLinkUserToCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, companyId }: { userId: number; companyId: number }) => linkUserToCompany(userId, companyId),
    onSuccess: (user) => {
      queryClient.setQueryData(authKeys.user(), user);
    },
  });
}
