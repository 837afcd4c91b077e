import * as api from "../../../../shared/api/second-factor";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { answerSignedIn } from "./auth.routes";
import { confirmTotp, disableTotp, loginWithSecondFactor, setupTotp, totpStatus } from "./totp.service";

/** The second step of a sign-in and the authenticator app (shared/api/second-factor.ts); passkeys have their own file. */
export function secondFactorRoutes(deps: RouterDeps): BoundRoute[] {
  return [
    route(api.loginSecondFactor, async ({ body, req, res }) =>
      answerSignedIn(res, await loginWithSecondFactor(deps, body, req.ip ?? "unknown", req.get("user-agent")), req.secure),
    ),
    route(api.getTotpStatus, ({ auth }) => totpStatus(deps, auth.user.id)),
    route(api.setupTotp, ({ auth }) => setupTotp(deps, auth.user)),
    route(api.confirmTotp, ({ auth, body, req }) => confirmTotp(deps, auth.user, body.code, req.ip ?? "unknown")),
    route(api.disableTotp, ({ auth, body, req }) => disableTotp(deps, auth.user, body, req.ip ?? "unknown")),
  ];
}
