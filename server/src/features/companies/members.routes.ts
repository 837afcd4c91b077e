import type { Request, Router } from "express";
import { memberRequestSchema, roleChangeSchema } from "../../../../shared/companies";
import type { RouterDeps } from "../../app-deps";
import { badRequest } from "../../http/errors";
import { authOf, tenantOf } from "../../http/guards";
import { assertImpliedFields } from "../../http/implied-fields";
import { idParam, parseOr400 } from "../../http/validate";
import { addMember, changeRole, listMembers } from "./members.service";

/** The company a role change acts in: the body's companyId when given, else the actor's active company. */
async function roleChangeCompany(req: Request): Promise<number> {
  const { companyId } = parseOr400(roleChangeSchema.pick({ companyId: true }), req.body);
  const company = companyId ?? authOf(req).user.activeCompanyId;
  if (company == null) throw badRequest("Create or choose a company first");
  return company;
}

/** Members and roles: /companies/:companyId/members and /users/:userId/role on the companies router. */
export function membersRoutes(router: Router, deps: RouterDeps): void {
  const { requireCompanyMember } = deps.guards;
  const member = requireCompanyMember({ company: { from: "param", param: "companyId" } });
  const admin = requireCompanyMember({ permission: "manageMembers", company: { from: "param", param: "companyId" } });
  // The company comes from the body or the active company; one the actor is not a member of is not revealed (404).
  const roleAdmin = requireCompanyMember({ permission: "changeRole", company: { from: "thing", companyOf: roleChangeCompany } });

  router.get("/companies/:companyId/members", ...member, async (req, res) => {
    res.json(await listMembers(deps, tenantOf(req).company.id));
  });

  router.post("/companies/:companyId/members", ...admin, async (req, res) => {
    const { company, role } = tenantOf(req);
    const input = parseOr400(memberRequestSchema(req.body), req.body);
    // The client's forms repeat the company in the body: it must be the route's.
    assertImpliedFields(tenantOf(req), { companyId: input.companyId, companyMessage: "companyId must be the company in the address" });
    res.status(201).json(await addMember(deps, { userId: authOf(req).user.id, role }, company, input));
  });

  router.patch("/users/:userId/role", ...roleAdmin, async (req, res) => {
    const targetUserId = idParam(req.params.userId);
    const { role } = parseOr400(roleChangeSchema, req.body);
    res.json(await changeRole(deps, authOf(req).user.id, tenantOf(req).company.id, targetUserId, role));
  });
}
