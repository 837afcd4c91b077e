import * as api from "@shared/api/companies";
import { companyScope } from "@/lib/auth/active-company";

/** Query keys of the companies feature. One company's data hangs off `companyScope.of(companyId)`. */
export const companyKeys = {
  /** GET /api/companies: the signed-in user's companies (the app shell refreshes it for platform admins). Not company-scoped. */
  list: () => [api.listCompanies.path] as const,
  /** GET /api/companies/:id/settings. */
  settings: (companyId: number) => [...companyScope.of(companyId), "settings"] as const,
  /** GET /api/companies/:id/members. */
  members: (companyId: number) => [...companyScope.of(companyId), "members"] as const,
  /** GET /api/companies/:id/invitations. */
  invitations: (companyId: number) => [...companyScope.of(companyId), "invitations"] as const,
};
