import * as api from "../../../../shared/api/meeting-record";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { readMeetingActionItems } from "./action-items.data";
import { actionItemCompanyGuard } from "./action-items.guard";
import { createActionItem, listCompanyActionItems, updateActionItem } from "./action-items.service";
import { meetingCompanyGuard } from "../meetings/meetings.guard";

/** A company's and a meeting's action items, and adding and changing one. */
export function actionItemsRoutes(deps: RouterDeps): BoundRoute[] {
  const meetingOf = meetingCompanyGuard(deps);
  const itemOf = actionItemCompanyGuard(deps);

  return [
    route(api.companyActionItems, ({ params, query, tenant }) => listCompanyActionItems(deps, tenant, params.companyId, query)),
    route(api.meetingActionItems, ({ params }) => readMeetingActionItems(deps.db, params.id), meetingOf),
    route(api.createActionItem, ({ params, body, tenant }) => createActionItem(deps, tenant, params.id, body), meetingOf),
    route(api.updateActionItem, ({ params, body, tenant }) => updateActionItem(deps, tenant, params.id, body), itemOf),
  ];
}
