import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RoleChangeResult } from "@shared/companies";
import type { CompanyRole } from "@shared/roles";
import * as api from "@shared/api/companies";
import { callApi } from "@/lib/api-client";
import { companyKeys } from "@/features/companies/api/company-keys";

/** PATCH /api/users/:userId/role {role, companyId} → {id, companyId, role}. */
export function changeRole(userId: number, role: CompanyRole, companyId: number): Promise<RoleChangeResult> {
  return callApi(api.changeRole, { params: { userId }, body: { role, companyId } });
}

export function useChangeRole(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: number; role: CompanyRole }) => changeRole(userId, role, companyId),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: companyKeys.settings(companyId), exact: true }),
        queryClient.invalidateQueries({ queryKey: companyKeys.members(companyId), exact: true }),
      ]),
  });
}
