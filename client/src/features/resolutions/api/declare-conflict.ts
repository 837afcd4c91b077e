import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/resolutions";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

/** POST /api/resolutions/:id/conflict: the caller's vote is withdrawn and they no longer vote on it. */
export function declareConflict(id: number, reason: string): Promise<void> {
  return callApi(api.declareConflict, { params: { id }, body: { reason } });
}

export function useDeclareConflict(id: number) {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return useMutation({
    mutationFn: (reason: string) => declareConflict(id, reason),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resolutionKeys.all(companyId) }),
  });
}
