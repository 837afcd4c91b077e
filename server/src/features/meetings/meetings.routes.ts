import { Router, type Request } from "express";
import { newMeetingSchema } from "../../../../shared/meetings";
import type { RouterDeps } from "../../app-deps";
import { tenantOf } from "../../http/guards";
import { assertImpliedFields } from "../../http/implied-fields";
import { idParam, parseOr400 } from "../../http/validate";
import { generateAgenda } from "./agenda.service";
import { createDraft, meetingCalendar, meetingCompanyOf, upcomingMeetings } from "./meetings.service";

/** Mounted at /api: /new-meeting, /meetings/:id/..., /companies/:companyId/meetings/upcoming. */
export function meetingsRouter(deps: RouterDeps): Router {
  const router = Router();
  const { requireCompanyMember } = deps.guards;
  const meetingOf = { from: "thing" as const, companyOf: (req: Request) => meetingCompanyOf(deps, idParam(req.params.id)) };

  router.post("/new-meeting", ...requireCompanyMember({ company: { from: "active" }, permission: "scheduleMeeting" }), async (req, res) => {
    const tenant = tenantOf(req);
    const input = parseOr400(newMeetingSchema, req.body);
    assertImpliedFields(tenant, { companyId: input.companyId, actor: { field: "createdBy", id: input.createdBy } });
    res.status(201).json(await createDraft(deps, tenant, input));
  });

  router.post(
    "/meetings/:id/generate-agenda",
    ...requireCompanyMember({ company: meetingOf, permission: "scheduleMeeting" }),
    async (req, res) => {
      res.json(await generateAgenda(deps, idParam(req.params.id), req.log));
    },
  );

  router.get("/meetings/:id/calendar.ics", ...requireCompanyMember({ company: meetingOf }), async (req, res) => {
    const { filename, body } = await meetingCalendar(deps, idParam(req.params.id));
    res.set("Content-Type", "text/calendar; charset=utf-8");
    res.set("Content-Disposition", `attachment; filename="${filename}"`);
    res.send(body);
  });

  router.get(
    "/companies/:companyId/meetings/upcoming",
    ...requireCompanyMember({ company: { from: "param", param: "companyId" } }),
    async (req, res) => {
      res.json(await upcomingMeetings(deps, tenantOf(req).company.id));
    },
  );

  return router;
}
