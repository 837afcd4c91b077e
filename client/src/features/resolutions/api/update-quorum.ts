import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/resolutions";
import type { QuorumSetting } from "@shared/resolutions";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

/** PUT /api/companies/:companyId/quorum (founders and admins). */
export function updateQuorum(companyId: number, quorumPercent: number | null): Promise<QuorumSetting> {
  return callApi(api.updateQuorum, { params: { companyId }, body: { quorumPercent } });
}

export function useUpdateQuorum() {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return useMutation({
    mutationFn: (quorumPercent: number | null) => updateQuorum(companyId ?? 0, quorumPercent),
    onSuccess: (saved) => queryClient.setQueryData([...resolutionKeys.all(companyId), "quorum"], saved),
  });
}
