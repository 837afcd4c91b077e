import { z } from "zod";

/**
 * One notification on the wire, as `GET /api/notifications` lists it: the signed-in user's unread
 * notifications, newest first. `link` is an address in the app to open; dates are ISO strings and
 * `readAt` is null until `POST /api/notifications/:id/read`.
 */
export const notificationSchema = z.strictObject({
  id: z.number().int(),
  kind: z.string(),
  companyId: z.number().int().nullable(),
  title: z.string(),
  body: z.string().nullable(),
  link: z.string().nullable(),
  readAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type AppNotification = z.infer<typeof notificationSchema>;
