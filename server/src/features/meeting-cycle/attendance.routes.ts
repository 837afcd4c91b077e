import * as api from "../../../../shared/api/meeting-record";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { meetingCompanyGuard } from "../meetings/meetings.service";
import { getAttendance, recordAttendance } from "./attendance.service";
import { writerOf } from "../resolutions/resolutions-write.service";
import { recordMeetingVote } from "./meeting-vote.service";

/** A meeting's attendance, and a show of hands on a resolution in it. */
export function attendanceRoutes(deps: RouterDeps): BoundRoute[] {
  const meetingOf = meetingCompanyGuard(deps);

  return [
    route(api.getAttendance, ({ params }) => getAttendance(deps, params.id), meetingOf),
    route(api.recordAttendance, ({ params, body, tenant }) => recordAttendance(deps, tenant, params.id, body), meetingOf),
    // The caller's membership and role are read under the resolution's row lock, as for an online vote.
    route(api.recordMeetingVote, ({ auth, params, body }) => recordMeetingVote(deps, writerOf(auth), params.id, body)),
  ];
}
