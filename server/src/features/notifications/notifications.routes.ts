import express, { type Request } from "express";
import * as api from "../../../../shared/api/notifications";
import { unsubscribeSchema } from "../../../../shared/notifications";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
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

/** The bell's endpoints (shared/api/notifications.ts) bound to their handlers. */
export function notificationsRoutes(deps: RouterDeps): BoundRoute[] {
  const ownNotification = {
    ownerOf: (req: Request) => notificationOwnerOf(deps, idParam(req.params.id)),
    notFoundMessage: "Notification not found",
  };
  return [
    route(api.listNotifications, ({ auth }) =>
      listRecent(deps, { userId: auth.user.id, passedSecondFactor: auth.secondFactorAt !== null }),
    ),
    route(api.markAllNotificationsRead, ({ auth }) => markAllRead(deps, auth.user.id)),
    route(api.markNotificationRead, ({ auth, params }) => markRead(deps, auth.user.id, params.id), ownNotification),
  ];
}

/** Form-encoded bodies are tiny here: `List-Unsubscribe=One-Click`. */
const oneClickBody = express.urlencoded({ extended: false, limit: "1kb" });

/**
 * The unsubscribe links of e-mails (public: the signed token names the user and the switch). A GET changes
 * nothing, because mail scanners and link previews open links:
 * - `GET /api/unsubscribe?token=…` (the `List-Unsubscribe` address, opened in a browser) sends the visitor
 *   to the app's unsubscribe page, which asks before turning anything off;
 * - `GET /api/unsubscribe/preview?token=…` tells that page which switch the link turns off;
 * - `POST /api/unsubscribe` turns it off: `{token}` as JSON from the page, or the one-click unsubscribe of
 *   mail programs (RFC 8058): a POST to the header's address, token in the query, with the form-encoded body
 *   `List-Unsubscribe=One-Click`.
 */
export function unsubscribeRoutes(deps: RouterDeps): BoundRoute[] {
  return [
    route(api.openUnsubscribeLink, async ({ query: { token }, res }) => {
      res.redirect(303, token ? `/unsubscribe?token=${encodeURIComponent(token)}` : "/unsubscribe");
    }),
    route(api.unsubscribePreview, ({ query }) => unsubscribePreview(deps, query.token)),
    // The body is JSON or form-encoded, so it is read here rather than checked against the JSON form first.
    route(api.unsubscribe, ({ query, req }) => unsubscribe(deps, tokenOfPost(req, query.token)), { before: [oneClickBody] }),
  ];
}

/** The token of an unsubscribe POST: the JSON body's from the page; the query's for a mail program's one-click POST. */
function tokenOfPost(req: Request, queryToken: string | undefined): string {
  if (req.is("application/json")) return parseOr400(unsubscribeSchema, req.body).token;
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (req.is("application/x-www-form-urlencoded") && body["List-Unsubscribe"] !== "One-Click") {
    throw new HttpError(400, "List-Unsubscribe must be One-Click", {}, [
      { path: "List-Unsubscribe", message: "List-Unsubscribe must be One-Click" },
    ]);
  }
  if (queryToken === undefined) throw new HttpError(400, invalidUnsubscribe);
  return queryToken;
}
