import { queryOptions } from "@tanstack/react-query";
import type { Resolution } from "@shared/resolutions";
import * as api from "@shared/api/resolutions";
import { callApi } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

/** GET /api/companies/:companyId/resolutions → newest first, each with its vote counts. */
export function getResolutions(companyId: number): Promise<Resolution[]> {
  return callApi(api.listResolutions, { params: { companyId } });
}

export const resolutionsQueryOptions = (companyId: number) =>
  queryOptions({ queryKey: resolutionKeys.list(companyId), queryFn: () => getResolutions(companyId) });

export function useResolutions() {
  return useActiveCompanyQuery(resolutionsQueryOptions);
}
