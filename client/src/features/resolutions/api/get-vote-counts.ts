import type { VoteCounts } from "@shared/resolutions";
import * as api from "@shared/api/resolutions";
import { callApi } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { useLiveConnected } from "@/lib/live-events";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

/** Vote counts refresh every 5000 ms while they are shown and the live stream is down. */
export const VOTE_COUNTS_REFRESH_MS = 5000;

/** GET /api/resolutions/:id/votes → {yes, no, abstain, total, userVote}. */
export function getVoteCounts(id: number): Promise<VoteCounts> {
  return callApi(api.getVoteCounts, { params: { id } });
}

/**
 * The counts of one resolution while `id` is set (the dialog is shown). The live stream writes new counts into
 * the cache; while it is down they are polled every 5 s instead. A failed poll is only logged.
 */
export function useVoteCounts(id: number | null) {
  const live = useLiveConnected();
  return useActiveCompanyQuery(
    (companyId) => ({
      queryKey: resolutionKeys.votes(companyId, id ?? 0),
      queryFn: async () => {
        try {
          return await getVoteCounts(id ?? 0);
        } catch (error) {
          console.error("Failed to refresh the vote counts", error);
          throw error;
        }
      },
      refetchInterval: live ? false : VOTE_COUNTS_REFRESH_MS,
      staleTime: 0,
    }),
    { enabled: id !== null },
  );
}
