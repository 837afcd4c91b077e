import * as api from "../../../../shared/api/resolutions";
import type { RouterDeps } from "../../app-deps";
import { secondFactorStandingOf } from "../../http/guards";
import { route, type BoundRoute } from "../../http/endpoints";
import { nudgeSigner } from "./written-nudge.service";

/** The nudge of a director yet to sign a written resolution (shared/api/resolutions.ts) bound to its handler. */
export function writtenNudgeRoutes(deps: RouterDeps): BoundRoute[] {
  return [
    // The caller's membership and role are read by the service with the resolution, under its share lock.
    route(api.nudgeSigner, ({ auth, params, body }) =>
      nudgeSigner(deps, { userId: auth.user.id, ...secondFactorStandingOf(auth) }, params.id, body.userId),
    ),
  ];
}
