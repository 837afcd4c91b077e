import type { Request } from "express";
import * as api from "../../../../shared/api/companies";
import { roleChangeSchema } from "../../../../shared/companies";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { badRequest } from "../../http/errors";
import { authOf } from "../../http/guards";
import { assertImpliedFields } from "../../http/implied-fields";
import { parseOr400 } from "../../http/validate";
import { addMember, changeRole, leaveCompany, listMembers } from "./members.service";

/** The company a role change acts in: the body's companyId when given, else the actor's active company. */
async function roleChangeCompany(req: Request): Promise<number> {
  const { companyId } = parseOr400(roleChangeSchema.pick({ companyId: true }), req.body);
  const company = companyId ?? authOf(req).user.activeCompanyId;
  if (company == null) throw badRequest("Create or choose a company first");
  return company;
}

/** Members and roles: /api/companies/:companyId/members and /api/users/:userId/role. */
export function membersRoutes(deps: RouterDeps): BoundRoute[] {
  return [
    route(api.listMembers, ({ auth, tenant }) => listMembers(deps, tenant.company.id, auth.user.id)),
    route(api.addMember, ({ auth, tenant, body }) => {
      // The client's forms repeat the company in the body: it must be the route's.
      assertImpliedFields(tenant, { companyId: body.companyId, companyMessage: "companyId must be the company in the address" });
      return addMember(deps, { userId: auth.user.id, role: tenant.role, reauthAt: auth.reauthAt }, tenant.company, body);
    }),
    // The company comes from the body or the active company; one the actor is not a member of is not revealed (404).
    route(api.changeRole, ({ auth, tenant, params, body }) => changeRole(deps, auth.user.id, tenant.company.id, params.userId, body.role), {
      companyOf: roleChangeCompany,
    }),
    route(api.leaveCompany, ({ auth, tenant }) => leaveCompany(deps, auth.user.id, tenant.company.id)),
  ];
}
