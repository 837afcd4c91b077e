import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/companies";
import { callApi } from "@/lib/api-client";
import { companyScope } from "@/lib/auth/active-company";
import { authKeys } from "@/lib/auth/auth-keys";
import { companyKeys } from "@/features/companies/api/company-keys";

/** DELETE /api/companies/:companyId/members/me: the caller's membership ends (the last founder: 409). */
export function leaveCompany(companyId: number): Promise<void> {
  return callApi(api.leaveCompany, { params: { companyId } });
}

/** Leaving: nothing of that company stays cached, and the user and their companies are read again. */
export function useLeaveCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: leaveCompany,
    onSuccess: async (_answer, companyId) => {
      queryClient.removeQueries({ queryKey: companyScope.of(companyId) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: authKeys.user(), exact: true }),
        queryClient.invalidateQueries({ queryKey: companyKeys.list(), exact: true }),
      ]);
    },
  });
}
