import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/resolutions";
import type { CreateResolutionInput, Resolution } from "@shared/resolutions";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { markComplianceStale } from "@/lib/compliance-keys";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

/** POST /api/resolutions (in the active company). */
export function createResolution(body: CreateResolutionInput): Promise<Resolution> {
  return callApi(api.createResolution, { body });
}

export function useCreateResolution() {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return useMutation({
    mutationFn: createResolution,
    // A new pending resolution counts in the compliance verdicts on resolutions too.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: resolutionKeys.all(companyId) }),
        markComplianceStale(queryClient, companyId),
      ]),
  });
}
