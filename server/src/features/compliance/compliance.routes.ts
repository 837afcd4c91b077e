import { Router, type Response } from "express";
import type { RouterDeps } from "../../app-deps";
import { authOf, tenantOf } from "../../http/guards";
import { calendarFeed, companyCalendar, rotateCalendarFeed, subscribedCalendar } from "./calendar.service";
import { companyCompliance } from "./compliance.service";

function sendCalendar(res: Response, body: string, filename?: string): void {
  res.set("Content-Type", "text/calendar; charset=utf-8");
  if (filename) res.set("Content-Disposition", `attachment; filename="${filename}"`);
  res.send(body);
}

/**
 * Mounted at /api: /companies/:companyId/compliance and compliance.ics (members), /users/:id/calendar-feed
 * and its rotation (the user themself), and /calendar-feed.ics (no session: its secret key is the authority).
 */
export function complianceRouter(deps: RouterDeps): Router {
  const router = Router();
  const member = deps.guards.requireCompanyMember({ company: { from: "param", param: "companyId" } });
  const own = deps.guards.requireOwnResource("id");

  router.get("/companies/:companyId/compliance", ...member, async (req, res) => {
    res.json(await companyCompliance(deps, tenantOf(req).company.id));
  });

  router.get("/companies/:companyId/compliance.ics", ...member, async (req, res) => {
    const { company } = tenantOf(req);
    sendCalendar(res, await companyCalendar(deps, company), `compliance-${company.id}.ics`);
  });

  router.get("/users/:id/calendar-feed", ...own, async (req, res) => {
    res.json(await calendarFeed(deps, authOf(req).user, req.query.companyId));
  });

  router.post("/users/:id/calendar-feed/rotate", ...own, async (req, res) => {
    res.json(await rotateCalendarFeed(deps, authOf(req).user, req.query.companyId));
  });

  router.get("/calendar-feed.ics", async (req, res) => {
    sendCalendar(res, await subscribedCalendar(deps, req.query));
  });

  return router;
}
