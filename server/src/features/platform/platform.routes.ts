import * as api from "../../../../shared/api/platform";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { assertRecentSecondFactor, createService, deleteService, listServices, updateService } from "./platform.service";

/**
 * The platform services endpoints (shared/api/platform.ts): platform administrators only (401 signed out, 403 anyone
 * else); a write also needs a recent second factor (403 with the code second_factor_required).
 */
export function platformRoutes(deps: RouterDeps): BoundRoute[] {
  const recent = (secondFactorAt: Date | null) => assertRecentSecondFactor(deps.clock, secondFactorAt);
  return [
    route(api.listServices, () => listServices(deps)),
    route(api.createService, async ({ auth, body }) => {
      recent(auth.secondFactorAt);
      return createService(deps, auth.user.id, body);
    }),
    route(api.updateService, async ({ auth, params, body }) => {
      recent(auth.secondFactorAt);
      return updateService(deps, auth.user.id, params.id, body);
    }),
    route(api.deleteService, async ({ auth, params }) => {
      recent(auth.secondFactorAt);
      return deleteService(deps, auth.user.id, params.id);
    }),
  ];
}
