import { z } from "zod";
import { text } from "./input";
import type { PreferenceKey } from "./preferences";

/**
 * One notification on the wire, as `GET /api/notifications` lists it: the signed-in user's unread
 * notifications, newest first. `link` is an address in the app to open; dates are ISO strings and
 * `readAt` is null until `POST /api/notifications/:id/read`.
 */
export interface AppNotification {
  id: number;
  kind: string;
  companyId: number | null;
  title: string;
  body: string | null;
  link: string | null;
  readAt: string | null;
  createdAt: string;
}

/** The longest unsubscribe token accepted (a signed one is far shorter). */
export const maxUnsubscribeToken = 300;

/** `POST /api/unsubscribe` from the unsubscribe page: the signed token of the e-mail's link. */
export const unsubscribeSchema = z.strictObject({
  token: text({ max: maxUnsubscribeToken, min: 1, requiredMessage: "Token is required", maxMessage: "This unsubscribe link is not valid" }),
});
export type UnsubscribeInput = z.input<typeof unsubscribeSchema>;

/** The switch an unsubscribe link turns off, by its key and as Settings names it. */
export interface UnsubscribeTarget {
  key: PreferenceKey;
  label: string;
}
