import * as api from "../../../../shared/api/second-factor";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { assertFreshProof } from "../../http/fresh-proof";
import { answerSignedIn } from "./auth.routes";
import { confirmTotp, disableTotp, loginWithSecondFactor, setupTotp, totpStatus } from "./totp.service";

/** The second step of a sign-in and the authenticator app (shared/api/second-factor.ts); passkeys have their own file. */
export function secondFactorRoutes(deps: RouterDeps): BoundRoute[] {
  return [
    route(api.loginSecondFactor, async ({ body, req, res }) =>
      answerSignedIn(res, await loginWithSecondFactor(deps, body, req.ip ?? "unknown", req.get("user-agent")), req.secure),
    ),
    route(api.getTotpStatus, ({ auth }) => totpStatus(deps, auth.user.id)),
    route(api.setupTotp, async ({ auth }) => {
      assertFreshProof(deps.clock, auth);
      return setupTotp(deps, auth.user);
    }),
    route(api.confirmTotp, async ({ auth, body, req }) => {
      assertFreshProof(deps.clock, auth);
      return confirmTotp(deps, auth, body.code, req.ip ?? "unknown");
    }),
    // Turning the app off carries its own proof in the body (the password and a current code).
    route(api.disableTotp, ({ auth, body, req }) => disableTotp(deps, auth.user, body, req.ip ?? "unknown")),
  ];
}
