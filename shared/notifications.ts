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
