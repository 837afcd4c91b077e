import * as api from "../../../../shared/api/meeting-record";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { writerOf } from "../resolutions/open-resolution-write.service";
import { recordMeetingVote } from "./show-of-hands";

/** A show of hands on a resolution at a meeting. */
export function showOfHandsRoutes(deps: RouterDeps): BoundRoute[] {
  return [
    // The caller's membership and role are read under the resolution's row lock, as for an online vote.
    route(api.recordMeetingVote, ({ auth, params, body }) => recordMeetingVote(deps, writerOf(auth), params.id, body)),
  ];
}
