import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/resolutions";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

/** DELETE /api/resolutions/:id/conflict: withdraws the caller's declaration while the resolution is open. */
export function withdrawConflict(id: number): Promise<void> {
  return callApi(api.withdrawConflict, { params: { id } });
}

export function useWithdrawConflict(id: number) {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return useMutation({
    mutationFn: () => withdrawConflict(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resolutionKeys.all(companyId) }),
  });
}
