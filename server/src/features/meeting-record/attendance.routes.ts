import * as api from "../../../../shared/api/meeting-record";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { meetingCompanyGuard } from "../meetings/meetings.guard";
import { getAttendance, recordAttendance } from "./attendance.service";

/** A meeting's attendance. */
export function attendanceRoutes(deps: RouterDeps): BoundRoute[] {
  const meetingOf = meetingCompanyGuard(deps);

  return [
    route(api.getAttendance, ({ params }) => getAttendance(deps, params.id), meetingOf),
    route(api.recordAttendance, ({ params, body, tenant }) => recordAttendance(deps, tenant, params.id, body), meetingOf),
  ];
}
