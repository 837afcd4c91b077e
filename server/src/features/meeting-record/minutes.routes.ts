import * as api from "../../../../shared/api/meeting-record";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { meetingCompanyGuard } from "../meetings/meetings.guard";
import { approveMinutes, circulateMinutes, draftMinutes, editMinutes, getMinutes } from "./minutes.service";

/** A meeting's minutes, bound to their declarations; who may write is checked by the service against the meeting. */
export function minutesRoutes(deps: RouterDeps): BoundRoute[] {
  const meetingOf = meetingCompanyGuard(deps);

  return [
    route(api.getMinutes, ({ params, tenant }) => getMinutes(deps, tenant, params.id), meetingOf),
    route(api.draftMinutes, ({ params, tenant, body, req }) => draftMinutes(deps, tenant, params.id, body, req.log), meetingOf),
    route(api.editMinutes, ({ params, tenant, body }) => editMinutes(deps, tenant, params.id, body.text), meetingOf),
    route(api.circulateMinutes, ({ params, tenant }) => circulateMinutes(deps, tenant, params.id), meetingOf),
    route(api.approveMinutes, ({ params, tenant, body }) => approveMinutes(deps, tenant, params.id, body.via), meetingOf),
  ];
}
