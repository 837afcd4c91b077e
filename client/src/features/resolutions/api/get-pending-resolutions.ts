import { queryOptions } from "@tanstack/react-query";
import type { PendingResolutionSummary } from "@shared/resolutions";
import * as api from "@shared/api/resolutions";
import { callApi } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

/** GET /api/companies/:companyId/resolutions/pending → pending and not past the deadline, soonest deadline first. */
export function getPendingResolutions(companyId: number): Promise<PendingResolutionSummary[]> {
  return callApi(api.pendingResolutions, { params: { companyId } });
}

export const pendingResolutionsQueryOptions = (companyId: number) =>
  queryOptions({ queryKey: resolutionKeys.pending(companyId), queryFn: () => getPendingResolutions(companyId) });

export function usePendingResolutions() {
  return useActiveCompanyQuery(pendingResolutionsQueryOptions);
}
