import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CastVoteInput, VoteCounts } from "@shared/resolutions";
import * as api from "@shared/api/resolutions";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { markComplianceStale } from "@/lib/compliance-keys";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

/** POST /api/resolutions/:id/vote → the counts after the vote. */
export function castVote(id: number, body: CastVoteInput): Promise<VoteCounts> {
  return callApi(api.castVote, { params: { id }, body });
}

export function useCastVote(id: number) {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return useMutation({
    mutationFn: (body: CastVoteInput) => castVote(id, body),
    onSuccess: (counts) => {
      queryClient.setQueryData(resolutionKeys.votes(companyId, id), counts);
      // The vote may have decided the resolution: the lists, its details and the compliance verdicts
      // (decided with quorum, nothing pending past its deadline) are read again.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: resolutionKeys.all(companyId) }),
        markComplianceStale(queryClient, companyId),
      ]);
    },
  });
}
