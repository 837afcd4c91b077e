import * as api from "../../../../shared/api/meetings";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { assertImpliedFields } from "../../http/implied-fields";
import { readAgenda } from "./agenda-items.service";
import { replaceAgenda } from "./agenda-write.service";
import { generateAgenda } from "./agenda.service";
import { meetingCompanyGuard } from "./meetings.guard";
import { createDraft, meetingCalendar } from "./meetings.service";
import { upcomingMeetings } from "./upcoming-list";

/** The meetings endpoints (shared/api/meetings.ts) bound to their handlers. */
export function meetingsRoutes(deps: RouterDeps): BoundRoute[] {
  const meetingOf = meetingCompanyGuard(deps);

  return [
    route(api.createMeetingDraft, ({ tenant, body }) => {
      assertImpliedFields(tenant, { companyId: body.companyId, actor: { field: "createdBy", id: body.createdBy } });
      return createDraft(deps, tenant, body);
    }),
    route(
      api.generateAgenda,
      ({ params, tenant, req }) => generateAgenda(deps, { companyId: tenant.company.id, userId: tenant.user.id }, params.id, req.log),
      meetingOf,
    ),
    route(
      api.meetingCalendar,
      async ({ params, res }) => {
        const { filename, body } = await meetingCalendar(deps, params.id);
        res.set("Content-Type", "text/calendar; charset=utf-8");
        res.set("Content-Disposition", `attachment; filename="${filename}"`);
        res.send(body);
      },
      meetingOf,
    ),
    route(api.getAgenda, async ({ params }) => ({ items: await readAgenda(deps.db, params.id) }), meetingOf),
    route(api.replaceAgenda, ({ params, body, tenant }) => replaceAgenda(deps, tenant, params.id, body.items), meetingOf),
    route(api.upcomingMeetings, ({ tenant }) =>
      upcomingMeetings(deps, { companyId: tenant.company.id, userId: tenant.user.id }, deps.lists),
    ),
  ];
}
