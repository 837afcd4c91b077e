import { z } from "zod";
import { answer } from "./answer";
import { text } from "./input";
import { preferenceKeys, type PreferenceKey } from "./preferences";

/**
 * One notification on the wire, as `GET /api/notifications` lists it: the signed-in user's unread
 * notifications, newest first. `link` is an address in the app to open; dates are ISO strings and
 * `readAt` is null until `POST /api/notifications/:id/read`.
 */
export const appNotificationSchema = answer.object({
  id: answer.number().int(),
  kind: answer.string(),
  companyId: answer.number().int().nullable(),
  title: answer.string(),
  body: answer.string().nullable(),
  link: answer.string().nullable(),
  readAt: answer.string().nullable(),
  createdAt: answer.string(),
});
export type AppNotification = z.infer<typeof appNotificationSchema>;

/** The longest unsubscribe token accepted (a signed one is far shorter). */
export const maxUnsubscribeToken = 300;

/** `POST /api/unsubscribe` from the unsubscribe page: the signed token of the e-mail's link. */
export const unsubscribeSchema = z.strictObject({
  token: text({ max: maxUnsubscribeToken, min: 1, requiredMessage: "Token is required", maxMessage: "This unsubscribe link is not valid" }),
});
export type UnsubscribeInput = z.input<typeof unsubscribeSchema>;

/**
 * The `token` of the unsubscribe links' query (`GET /api/unsubscribe`, `…/preview`, and a mail program's
 * one-click POST). Anything that cannot be a token (repeated, over-long, with control characters) reads as none, which the
 * routes answer as a link that is not valid rather than as a malformed request: the visitor came from an e-mail.
 */
export const unsubscribeQuerySchema = z.object({
  token: z.optional(text({ max: maxUnsubscribeToken, trim: false })).catch(undefined),
});

/** The switch an unsubscribe link turns off, by its key and as Settings names it. */
export const unsubscribeTargetSchema = answer.object({
  key: answer.enum(preferenceKeys as [PreferenceKey, ...PreferenceKey[]]),
  label: answer.string(),
});
export type UnsubscribeTarget = z.infer<typeof unsubscribeTargetSchema>;
