import { Router, type Request } from "express";
import type { RouterDeps } from "../../app-deps";
import { authOf } from "../../http/guards";
import { idParam } from "../../http/validate";
import { escapeHtml, switchLabels } from "./mail-templates";
import { listRecent, markAllRead, markRead, notificationOwnerOf, unsubscribe } from "./notifications.service";

export function notificationsRouter(deps: RouterDeps): Router {
  const router = Router();
  const { requireAuth, requireOwnThing } = deps.guards;
  const ownNotification = requireOwnThing((req: Request) => notificationOwnerOf(deps, idParam(req.params.id)), "Notification not found");

  router.get("/", requireAuth, async (req, res) => {
    res.json(await listRecent(deps, authOf(req).user.id));
  });

  router.post("/read-all", requireAuth, async (req, res) => {
    await markAllRead(deps, authOf(req).user.id);
    res.status(204).end();
  });

  router.post("/:id/read", ...ownNotification, async (req, res) => {
    await markRead(deps, authOf(req).user.id, idParam(req.params.id));
    res.status(204).end();
  });

  return router;
}

/**
 * `GET /api/unsubscribe?token=…`, the link at the foot of an e-mail: public (opened from a mail program, with
 * no session), the signed token names the user and the switch. Answers a small page a person reads.
 */
export function unsubscribeRouter(deps: RouterDeps): Router {
  const router = Router();
  router.get("/", async (req, res) => {
    const key = await unsubscribe(deps, req.query.token);
    const name = escapeHtml(switchLabels[key]);
    res
      .type("html")
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Unsubscribed · Quorum</title></head>` +
          `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5">` +
          `<h1>You are unsubscribed</h1><p>&quot;${name}&quot; is now off. You can turn it back on in Settings → Notifications.</p>` +
          `<p><a href="/settings">Open Settings</a></p></body></html>`,
      );
  });
  return router;
}
