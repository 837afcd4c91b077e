import * as api from "../../../../shared/api/companies";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import type { AuthContext } from "../../http/request-context";
import { toUserObject } from "../identity/user-object.service";
import { createCompany, getCompanySettings, listCompanies, setActiveCompany, updateCompany } from "./companies.service";
import { membersRoutes } from "./members.routes";

/** The companies endpoints (shared/api/companies.ts) bound to their handlers, members and roles included. */
export function companiesRoutes(deps: RouterDeps): BoundRoute[] {
  // Switching the active company: PATCH is the switcher's call, PUT {companyId} the onboarding wizard's.
  const switchActiveCompany = async ({ auth, body }: { auth: AuthContext; body: { companyId: number } }) => {
    const { user, role } = await setActiveCompany(deps, auth.user.id, body.companyId);
    return toUserObject(user, role);
  };

  return [
    route(api.createCompany, ({ auth, body }) => createCompany(deps, auth, body)),
    route(api.listCompanies, ({ auth }) => listCompanies(deps, auth.user.id)),
    route(api.getCompanySettings, ({ auth, tenant }) =>
      getCompanySettings(deps, tenant.company.id, { id: auth.user.id, role: tenant.role }),
    ),
    route(api.updateCompany, ({ auth, tenant, body }) => updateCompany(deps, auth, tenant.company.id, body)),
    route(api.switchActiveCompany, switchActiveCompany),
    route(api.linkUserToCompany, switchActiveCompany),
    ...membersRoutes(deps),
  ];
}
