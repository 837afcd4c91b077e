import * as api from "../../../../shared/api/platform";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { createService, deleteService, listServices, updateService } from "./platform.service";

/** The platform services endpoints (shared/api/platform.ts): platform administrators only (401 signed out, 403 anyone else). */
export function platformRoutes(deps: RouterDeps): BoundRoute[] {
  return [
    route(api.listServices, () => listServices(deps)),
    route(api.createService, ({ auth, body }) => createService(deps, auth.user.id, body)),
    route(api.updateService, ({ auth, params, body }) => updateService(deps, auth.user.id, params.id, body)),
    route(api.deleteService, ({ auth, params }) => deleteService(deps, auth.user.id, params.id)),
  ];
}
