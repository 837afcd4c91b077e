import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";
import type { QuorumSettingResponse } from "@/features/resolutions/api/get-quorum";

/** PUT /api/companies/:companyId/quorum (founders and admins). */
export function updateQuorum(companyId: number, quorumPercent: number | null): Promise<QuorumSettingResponse> {
  return apiJson<QuorumSettingResponse>("PUT", `/api/companies/${companyId}/quorum`, { quorumPercent });
}

export function useUpdateQuorum() {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return useMutation({
    mutationFn: (quorumPercent: number | null) => updateQuorum(companyId ?? 0, quorumPercent),
    onSuccess: (saved) => queryClient.setQueryData([...resolutionKeys.all(companyId), "quorum"], saved),
  });
}
