import * as api from "../../../../shared/api/account";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import type { AuthContext } from "../../http/request-context";
import { toUserObject } from "../identity/user-object.service";
import {
  changePassword,
  getPreferences,
  listSessions,
  revokeOtherSessions,
  updatePreferences,
  updateProfile,
  type Caller,
} from "./account.service";

const callerOf = ({ user, sessionId }: AuthContext): Caller => ({ user, sessionId });

/**
 * The caller's own account on `/api/users/:id…` (shared/api/account.ts): profile, password, sessions and switches.
 * `PUT /api/users/:id` (linking a company) and the role and active-company calls belong to companies.
 */
export function accountRoutes(deps: RouterDeps): BoundRoute[] {
  return [
    route(api.updateProfile, async ({ auth, body }) => toUserObject(await updateProfile(deps, auth, body), auth.activeRole)),
    route(api.changePassword, async ({ auth, body, req }) => ({
      message: "Password updated",
      otherSessionsEnded: await changePassword(deps, auth, body, req.ip ?? "unknown"),
    })),
    route(api.listSessions, ({ auth }) => listSessions(deps, callerOf(auth))),
    route(api.revokeOtherSessions, async ({ auth }) => ({ revoked: await revokeOtherSessions(deps, callerOf(auth)) })),
    route(api.getPreferences, ({ auth }) => getPreferences(deps, auth.user.id)),
    route(api.updatePreferences, ({ auth, body }) => updatePreferences(deps, auth.user.id, body)),
  ];
}
