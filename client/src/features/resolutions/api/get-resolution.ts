import type { ResolutionDetails } from "@shared/resolutions";
import * as api from "@shared/api/resolutions";
import { callApi } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

/** GET /api/resolutions/:id → the resolution, its documents, who has voted, and its certificate once decided. */
export function getResolution(id: number): Promise<ResolutionDetails> {
  return callApi(api.getResolution, { params: { id } });
}

export function useResolution(id: number | null) {
  return useActiveCompanyQuery(
    (companyId) => ({ queryKey: resolutionKeys.detail(companyId, id ?? 0), queryFn: () => getResolution(id ?? 0) }),
    { enabled: id !== null },
  );
}
