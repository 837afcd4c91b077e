import type { Response } from "express";
import * as api from "../../../../shared/api/compliance";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { calendarFeed, companyCalendar, rotateCalendarFeed, subscribedCalendar } from "./calendar.service";
import { companyCompliance } from "./compliance.service";

function sendCalendar(res: Response, body: string, filename?: string): void {
  res.set("Content-Type", "text/calendar; charset=utf-8");
  if (filename) res.set("Content-Disposition", `attachment; filename="${filename}"`);
  res.send(body);
}

/**
 * The compliance endpoints (shared/api/compliance.ts): a company's health and calendar (members), the caller's
 * calendar feed address and its rotation (the user themself), and the feed itself (no session: its secret key
 * is the authority).
 */
export function complianceRoutes(deps: RouterDeps): BoundRoute[] {
  return [
    route(api.getCompliance, ({ tenant }) => companyCompliance(deps, tenant.company.id, deps.lists)),
    route(api.complianceCalendar, async ({ tenant, res }) => {
      sendCalendar(res, await companyCalendar(deps, tenant.company), `compliance-${tenant.company.id}.ics`);
    }),
    route(api.getCalendarFeed, ({ auth, query }) => calendarFeed(deps, auth, query.companyId)),
    route(api.rotateCalendarFeed, ({ auth, query }) => rotateCalendarFeed(deps, auth, query.companyId)),
    route(api.subscribedCalendar, async ({ query, res }) => {
      sendCalendar(res, await subscribedCalendar(deps, query));
    }),
  ];
}
