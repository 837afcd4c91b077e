import { Router, type RequestHandler } from "express";
import { companyProfileSchema, switchCompanySchema } from "../../../../shared/companies";
import type { RouterDeps } from "../../app-deps";
import { authOf, tenantOf } from "../../http/guards";
import { parseOr400 } from "../../http/validate";
import { toUserObject } from "../../http/user-object";
import { createCompany, getCompanySettings, listCompanies, setActiveCompany, updateCompany } from "./companies.service";
import { membersRoutes } from "./members.routes";

/**
 * Mounted at /api. Holds exactly these paths, so other routers under /api/companies and /api/users
 * (documents, the profile router, ...) are untouched:
 *   /companies, /companies/:companyId, /companies/:companyId/settings, /companies/:companyId/members,
 *   /users/:id/active-company, PUT /users/:id, /users/:userId/role.
 */
export function companiesRouter(deps: RouterDeps): Router {
  const router = Router();
  const { requireAuth, requireCompanyMember, requireOwnResource } = deps.guards;
  const member = requireCompanyMember({ company: { from: "param", param: "companyId" } });
  const admin = requireCompanyMember({ permission: "editCompany", company: { from: "param", param: "companyId" } });

  router.post("/companies", requireAuth, async (req, res) => {
    const input = parseOr400(companyProfileSchema, req.body);
    res.status(201).json(await createCompany(deps, authOf(req).user.id, input));
  });

  router.get("/companies", requireAuth, async (req, res) => {
    res.json(await listCompanies(deps, authOf(req).user.id));
  });

  router.get("/companies/:companyId/settings", ...member, async (req, res) => {
    const { company, role } = tenantOf(req);
    res.json(await getCompanySettings(deps, company.id, role));
  });

  router.put("/companies/:companyId", ...admin, async (req, res) => {
    const input = parseOr400(companyProfileSchema, req.body);
    res.json(await updateCompany(deps, authOf(req).user.id, tenantOf(req).company.id, input));
  });

  // Switching the active company: PATCH is the switcher's call, PUT {companyId} the onboarding wizard's.
  const switchActiveCompany: RequestHandler = async (req, res) => {
    const { companyId } = parseOr400(switchCompanySchema, req.body);
    const { user, role } = await setActiveCompany(deps, authOf(req).user.id, companyId);
    res.json(toUserObject(user, role));
  };
  router.patch("/users/:id/active-company", ...requireOwnResource("id"), switchActiveCompany);
  router.put("/users/:id", ...requireOwnResource("id"), switchActiveCompany);

  membersRoutes(router, deps);
  return router;
}
