import { useMutation } from "@tanstack/react-query";
import type { ChainVerdict } from "@shared/audit-chain";
import * as api from "@shared/api/audit";
import { callApi } from "@/lib/api-client";

/** GET /api/companies/:companyId/audit/verify → the chain recomputed: ok with its count, or its first broken event. */
export function verifyAuditChain(companyId: number): Promise<ChainVerdict> {
  return callApi(api.verifyAuditChain, { params: { companyId } });
}

/** Verifies on demand (a button): each click recomputes the chain as it is now, so nothing is cached. */
export function useVerifyAuditChain(companyId: number) {
  return useMutation({ mutationFn: () => verifyAuditChain(companyId) });
}
