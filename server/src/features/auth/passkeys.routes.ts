import type { Request } from "express";
import * as api from "../../../../shared/api/second-factor";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { assertFreshProof } from "../../http/fresh-proof";
import { idParam } from "../../http/validate";
import { answerSignedIn } from "./auth.routes";
import { loginWithPasskey, passkeyLoginOptions } from "./passkey-login.service";
import { deletePasskey, listPasskeys, passkeyOwnerOf, passkeyRegisterOptions, registerPasskey } from "./passkeys.service";

/** Passkeys: registering, listing and removing the caller's, and signing in with one (shared/api/second-factor.ts). */
export function passkeysRoutes(deps: RouterDeps): BoundRoute[] {
  const ownPasskey = { ownerOf: (req: Request) => passkeyOwnerOf(deps, idParam(req.params.id)), notFoundMessage: "Passkey not found" };
  return [
    route(api.passkeyRegisterOptions, async ({ auth }) => {
      assertFreshProof(deps.clock, auth);
      return passkeyRegisterOptions(deps, auth.user);
    }),
    route(api.registerPasskey, async ({ auth, body }) => {
      assertFreshProof(deps.clock, auth);
      return registerPasskey(deps, auth, body);
    }),
    route(api.listPasskeys, ({ auth }) => listPasskeys(deps, auth.user.id)),
    route(
      api.deletePasskey,
      async ({ auth, params }) => {
        assertFreshProof(deps.clock, auth);
        return deletePasskey(deps, auth.user, params.id);
      },
      ownPasskey,
    ),
    route(api.passkeyLoginOptions, ({ body, req }) => passkeyLoginOptions(deps, body.challenge, req.ip ?? "unknown")),
    route(api.loginWithPasskey, async ({ body, req, res }) =>
      answerSignedIn(res, await loginWithPasskey(deps, body, req.ip ?? "unknown", req.get("user-agent")), req.secure),
    ),
  ];
}
