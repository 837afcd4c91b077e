import { queryOptions } from "@tanstack/react-query";
import * as api from "@shared/api/resolutions";
import type { QuorumSetting } from "@shared/resolutions";
import { callApi } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

/** GET /api/companies/:companyId/quorum → the company's quorum (null percent: more than half). */
export function getQuorum(companyId: number): Promise<QuorumSetting> {
  return callApi(api.getQuorum, { params: { companyId } });
}

export const quorumQueryOptions = (companyId: number) =>
  queryOptions({ queryKey: [...resolutionKeys.all(companyId), "quorum"], queryFn: () => getQuorum(companyId) });

export function useQuorum() {
  return useActiveCompanyQuery(quorumQueryOptions);
}
