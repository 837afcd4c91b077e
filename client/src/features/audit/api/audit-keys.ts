import { companyScope } from "@/lib/auth/active-company";

/** The filters of the audit log as the screen holds them (dates as ISO timestamps), part of the list's key. */
export interface AuditFilters {
  action?: string;
  actorId?: number;
  from?: string;
  to?: string;
}

/** Query keys of the audit trail, each under its company's scope. */
export const auditKeys = {
  all: (companyId: number) => [...companyScope.of(companyId), "audit"] as const,
  /** GET /api/companies/:companyId/audit, page after page, for one set of filters. */
  list: (companyId: number, filters: AuditFilters) => [...auditKeys.all(companyId), "list", filters] as const,
};
