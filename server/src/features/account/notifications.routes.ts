import { Router, type Request } from "express";
import type { RouterDeps } from "../../app-deps";
import { authOf } from "../../http/guards";
import { idParam } from "../../http/validate";
import { listUnread, markRead, notificationOwnerOf } from "./notifications.service";

export function notificationsRouter(deps: RouterDeps): Router {
  const router = Router();
  const { requireAuth, requireOwnThing } = deps.guards;
  const ownNotification = requireOwnThing((req: Request) => notificationOwnerOf(deps, idParam(req.params.id)), "Notification not found");

  router.get("/", requireAuth, async (req, res) => {
    res.json(await listUnread(deps, authOf(req).user.id));
  });

  router.post("/:id/read", ...ownNotification, async (req, res) => {
    await markRead(deps, authOf(req).user.id, idParam(req.params.id));
    res.status(204).end();
  });

  return router;
}
