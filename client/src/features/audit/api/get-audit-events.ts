import { useInfiniteQuery } from "@tanstack/react-query";
import type { AuditAction, AuditPage } from "@shared/audit";
import * as api from "@shared/api/audit";
import { callApi } from "@/lib/api-client";
import { auditKeys, type AuditFilters } from "@/features/audit/api/audit-keys";

/** How many events a page of the log shows. */
export const auditPageSize = 50;

/** GET /api/companies/:companyId/audit → a page of events, newest first, its next cursor and the chain's head. */
export function getAuditEvents(companyId: number, filters: AuditFilters, cursor?: string): Promise<AuditPage> {
  return callApi(api.listAuditEvents, {
    params: { companyId },
    query: {
      action: filters.action as AuditAction | undefined,
      actorId: filters.actorId,
      from: filters.from,
      to: filters.to,
      cursor,
      limit: auditPageSize,
    },
  });
}

/** The company's audit events for these filters; "Load more" fetches the page after the last one's cursor. */
export function useAuditEvents(companyId: number, filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: auditKeys.list(companyId, filters),
    queryFn: ({ pageParam }) => getAuditEvents(companyId, filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
