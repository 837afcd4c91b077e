import type { Resolution } from "@shared/resolutions";
import { apiJson } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

/** GET /api/companies/:companyId/resolutions → newest first, each with its vote counts. */
export function getResolutions(companyId: number): Promise<Resolution[]> {
  return apiJson<Resolution[]>("GET", `/api/companies/${companyId}/resolutions`);
}

export function useResolutions() {
  return useActiveCompanyQuery((companyId) => ({ queryKey: resolutionKeys.list(companyId), queryFn: () => getResolutions(companyId) }));
}
