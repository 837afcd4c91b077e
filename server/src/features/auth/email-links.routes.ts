import * as api from "../../../../shared/api/identity";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { toUserObject } from "../identity/user-object.service";
import { resendVerification, verifyEmail } from "./email-verification.service";
import {
  confirmPasswordReset,
  passwordResetDoneMessage,
  passwordResetRequestedMessage,
  requestPasswordReset,
} from "./password-reset.service";

/** What the links mailed to an address serve: proving it, and choosing a new password (shared/api/identity.ts). */
export function emailLinkRoutes(deps: RouterDeps): BoundRoute[] {
  return [
    route(api.verifyEmail, async ({ body }) => {
      const { user, activeRole, othersLostAddress } = await verifyEmail(deps, body.token);
      deps.guards.forgetSessionsOf([user.id, ...othersLostAddress]);
      return toUserObject(user, activeRole);
    }),
    route(api.resendVerification, async ({ auth }) => {
      await resendVerification(deps, auth.user);
      return { message: "A new confirmation link is on its way; the earlier ones no longer work." };
    }),
    route(api.requestPasswordReset, async ({ body, req }) => {
      await requestPasswordReset(deps, body.email, req.ip ?? "unknown");
      return { message: passwordResetRequestedMessage };
    }),
    route(api.confirmPasswordReset, async ({ body }) => {
      const { userId } = await confirmPasswordReset(deps, body);
      // Its sessions were deleted: none may still answer from this instance's cache.
      deps.guards.forgetSessionsOf([userId]);
      return { message: passwordResetDoneMessage };
    }),
  ];
}
