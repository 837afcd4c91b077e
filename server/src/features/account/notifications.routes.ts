import express, { Router, type Request } from "express";
import { maxUnsubscribeToken, unsubscribeSchema } from "../../../../shared/notifications";
import type { RouterDeps } from "../../app-deps";
import { authOf } from "../../http/guards";
import { HttpError } from "../../http/errors";
import { idParam, parseOr400 } from "../../http/validate";
import {
  invalidUnsubscribe,
  listRecent,
  markAllRead,
  markRead,
  notificationOwnerOf,
  unsubscribe,
  unsubscribePreview,
} from "./notifications.service";

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

/** Form-encoded bodies are tiny here: `List-Unsubscribe=One-Click`. */
const oneClickBody = express.urlencoded({ extended: false, limit: "1kb" });

/**
 * The unsubscribe links of e-mails: public (opened from a mail program, with no session); the signed token
 * names the user and the switch. A GET changes nothing, because mail scanners and link previews open links:
 * - `GET /api/unsubscribe?token=…` (the `List-Unsubscribe` address, opened in a browser) sends the visitor
 *   to the app's unsubscribe page, which asks before turning anything off;
 * - `GET /api/unsubscribe/preview?token=…` tells that page which switch the link turns off;
 * - `POST /api/unsubscribe` turns it off: `{token}` as JSON from the page, or the one-click unsubscribe of
 *   mail programs (RFC 8058): a POST to the header's address, token in the query, with the form-encoded body
 *   `List-Unsubscribe=One-Click`.
 */
export function unsubscribeRouter(deps: RouterDeps): Router {
  const router = Router();

  router.get("/", (req, res) => {
    const token = typeof req.query.token === "string" ? req.query.token.slice(0, maxUnsubscribeToken) : "";
    res.redirect(303, token ? `/unsubscribe?token=${encodeURIComponent(token)}` : "/unsubscribe");
  });

  router.get("/preview", async (req, res) => {
    res.json(await unsubscribePreview(deps, req.query.token));
  });

  router.post("/", oneClickBody, async (req, res) => {
    res.json(await unsubscribe(deps, tokenOfPost(req)));
  });

  return router;
}

/** The token of an unsubscribe POST: the JSON body's from the page; the query's for a mail program's one-click POST. */
function tokenOfPost(req: Request): string {
  if (req.is("application/json")) return parseOr400(unsubscribeSchema, req.body).token;
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (req.is("application/x-www-form-urlencoded") && body["List-Unsubscribe"] !== "One-Click") {
    throw new HttpError(400, "List-Unsubscribe must be One-Click", {}, [
      { path: "List-Unsubscribe", message: "List-Unsubscribe must be One-Click" },
    ]);
  }
  if (typeof req.query.token !== "string") throw new HttpError(400, invalidUnsubscribe);
  return req.query.token;
}
