import { apiJson } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

export interface QuorumSettingResponse {
  quorumPercent: number | null;
  rule: string;
}

/** GET /api/companies/:companyId/quorum → the company's quorum (null percent: more than half). */
export function getQuorum(companyId: number): Promise<QuorumSettingResponse> {
  return apiJson<QuorumSettingResponse>("GET", `/api/companies/${companyId}/quorum`);
}

export function useQuorum() {
  return useActiveCompanyQuery((companyId) => ({
    queryKey: [...resolutionKeys.all(companyId), "quorum"],
    queryFn: () => getQuorum(companyId),
  }));
}
