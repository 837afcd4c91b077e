import { queryOptions } from "@tanstack/react-query";
import type { ResolutionDetails } from "@shared/resolutions";
import * as api from "@shared/api/resolutions";
import { callApi } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

/** GET /api/resolutions/:id → the resolution, its documents, who has voted, and its certificate once decided. */
export function getResolution(id: number): Promise<ResolutionDetails> {
  return callApi(api.getResolution, { params: { id } });
}

export const resolutionQueryOptions = (companyId: number, id: number) =>
  queryOptions({ queryKey: resolutionKeys.detail(companyId, id), queryFn: () => getResolution(id) });

export function useResolution(id: number | null) {
  return useActiveCompanyQuery((companyId) => resolutionQueryOptions(companyId, id ?? 0), { enabled: id !== null });
}
