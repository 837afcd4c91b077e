import * as api from "../../../../shared/api/identity";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { reauthenticate, reauthPasskeyOptions, reauthWithPasskey } from "./reauth.service";

/** Re-authentication (shared/api/identity.ts): the fresh proof a session needs before a security change. */
export function reauthRoutes(deps: RouterDeps): BoundRoute[] {
  return [
    route(api.reauthenticate, ({ auth, body, req }) => reauthenticate(deps, auth, body, req.ip ?? "unknown")),
    route(api.reauthPasskeyOptions, ({ auth }) => reauthPasskeyOptions(deps, auth)),
    route(api.reauthWithPasskey, ({ auth, body, req }) => reauthWithPasskey(deps, auth, body, req.ip ?? "unknown")),
  ];
}
