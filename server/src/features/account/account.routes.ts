import { Router, type Request } from "express";
import { passwordChangeSchema, profileUpdateSchema } from "../../../../shared/account";
import { preferencesUpdateSchema } from "../../../../shared/preferences-update";
import type { RouterDeps } from "../../app-deps";
import { authOf } from "../../http/guards";
import { toUserObject } from "../../http/user-object";
import { parseOr400 } from "../../http/validate";
import {
  changePassword,
  getPreferences,
  listSessions,
  revokeOtherSessions,
  updatePreferences,
  updateProfile,
  type Caller,
} from "./account.service";

const callerOf = (req: Request): Caller => {
  const { user, sessionId } = authOf(req);
  return { user, sessionId };
};

/**
 * The caller's own account on `/api/users/:id…`: profile, password, sessions and switches. Only the user
 * themself (403 for anyone else); being writes, they need the bearer token (the cookie alone is a read's).
 * `PUT /api/users/:id` (linking a company) and the role and active-company calls belong to companies.
 */
export function accountRouter(deps: RouterDeps): Router {
  const router = Router();
  const own = deps.guards.requireOwnResource("id");

  router.patch("/users/:id", ...own, async (req, res) => {
    const input = parseOr400(profileUpdateSchema, req.body);
    const updated = await updateProfile(deps, authOf(req).user.id, input);
    res.json(toUserObject(updated, authOf(req).activeRole));
  });

  router.patch("/users/:id/password", ...own, async (req, res) => {
    const input = parseOr400(passwordChangeSchema, req.body);
    const otherSessionsEnded = await changePassword(deps, callerOf(req), input, req.ip ?? "unknown");
    res.json({ message: "Password updated", otherSessionsEnded });
  });

  router.get("/users/:id/sessions", ...own, async (req, res) => {
    res.json(await listSessions(deps, callerOf(req)));
  });

  router.post("/users/:id/sessions/revoke-others", ...own, async (req, res) => {
    res.json({ revoked: await revokeOtherSessions(deps, callerOf(req)) });
  });

  router.get("/users/:id/preferences", ...own, async (req, res) => {
    res.json(await getPreferences(deps, authOf(req).user.id));
  });

  router.put("/users/:id/preferences", ...own, async (req, res) => {
    const input = parseOr400(preferencesUpdateSchema, req.body);
    res.json(await updatePreferences(deps, authOf(req).user.id, input));
  });

  return router;
}
