import { z } from "zod";
import { appNotificationSchema, unsubscribeQuerySchema, unsubscribeSchema, unsubscribeTargetSchema } from "../notifications";
import { endpoint } from "./endpoint";

const tag = "Notifications";
const signedIn = { class: "own-user", by: "session" } as const;
/**
 * The unsubscribe links of e-mails are opened from a mail program, with no session: the signed token names the
 * user and the switch. Only the POST turns anything off, because mail scanners and link previews open links.
 */
const byEmailLink = { class: "public" } as const;

export const listNotifications = endpoint({
  method: "GET",
  path: "/api/notifications",
  summary: "The bell: the caller's unread notifications and those read in the last week, newest first (at most 50)",
  tag,
  access: signedIn,
  responses: { 200: z.array(appNotificationSchema) },
});

export const markAllNotificationsRead = endpoint({
  method: "POST",
  path: "/api/notifications/read-all",
  summary: "Mark every unread notification of the caller read",
  tag,
  access: signedIn,
  responses: { 204: null },
});

export const markNotificationRead = endpoint({
  method: "POST",
  path: "/api/notifications/:id/read",
  summary: "Mark one of the caller's notifications read (another user's is answered as missing)",
  tag,
  access: { class: "own-user", by: "owner", thing: "notification" },
  responses: { 204: null },
});

export const openUnsubscribeLink = endpoint({
  method: "GET",
  path: "/api/unsubscribe",
  summary: "An e-mail's List-Unsubscribe address opened in a browser: leads to the app's unsubscribe page, changing nothing",
  tag,
  access: byEmailLink,
  query: unsubscribeQuerySchema,
  responses: {
    200: {
      contentType: "text/plain",
      description: "A 303 redirect to /unsubscribe?token=…, the page that asks before turning anything off",
    },
  },
});

export const unsubscribePreview = endpoint({
  method: "GET",
  path: "/api/unsubscribe/preview",
  summary: "The switch an unsubscribe link turns off (it turns nothing off); 400 for a token that is not genuine",
  tag,
  access: byEmailLink,
  query: unsubscribeQuerySchema,
  responses: { 200: unsubscribeTargetSchema },
});

export const unsubscribe = endpoint({
  method: "POST",
  path: "/api/unsubscribe",
  summary: "Turn off the switch the link's token names: {token} from the unsubscribe page, or a mail program's one-click POST",
  tag,
  access: byEmailLink,
  query: unsubscribeQuerySchema,
  body: unsubscribeSchema,
  streamedBody: [
    {
      contentType: "application/x-www-form-urlencoded",
      description: "One-click unsubscribe (RFC 8058): the body List-Unsubscribe=One-Click, the token in the query",
    },
  ],
  responses: { 200: unsubscribeTargetSchema },
});
