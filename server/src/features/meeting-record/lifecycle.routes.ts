import * as api from "../../../../shared/api/meeting-record";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { getDocument } from "../documents/documents-read.service";
import { meetingCompanyGuard } from "../meetings/meetings.guard";
import { updateMeeting } from "./lifecycle.service";

/** `PATCH /api/meetings/:id`: confirm, cancel or reschedule, answered with the meeting as a document. */
export function lifecycleRoutes(deps: RouterDeps): BoundRoute[] {
  const meetingOf = meetingCompanyGuard(deps);

  return [
    route(
      api.updateMeeting,
      async ({ params, body, tenant }) => {
        await updateMeeting(deps, tenant, params.id, body);
        return getDocument(deps, params.id, tenant.user.id);
      },
      meetingOf,
    ),
  ];
}
