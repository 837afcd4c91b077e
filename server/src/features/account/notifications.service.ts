import { and, desc, eq, isNull } from "drizzle-orm";
import type { AppNotification } from "../../../../shared/notifications";
import type { ServiceDeps } from "../../app-deps";
import type { Queryable } from "../../db/client";
import { notifications } from "../../db/schema";
import { notFound } from "../../http/errors";

export interface NewNotification {
  userId: number;
  companyId: number | null;
  kind: string;
  title: string;
  body?: string | null;
  link?: string | null;
}

/** One insert for any number of recipients, in the caller's transaction. */
export async function notify(db: Queryable, items: NewNotification[]): Promise<void> {
  if (items.length === 0) return;
  await db.insert(notifications).values(items);
}

type NotificationRow = typeof notifications.$inferSelect;

/** The wire shape of a notification (never the row: the recipient's id stays on the server). */
function toNotification(row: NotificationRow): AppNotification {
  return {
    id: row.id,
    kind: row.kind,
    companyId: row.companyId,
    title: row.title,
    body: row.body,
    link: row.link,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The caller's unread notifications, newest first (at most 50). */
export async function listUnread({ db }: ServiceDeps<"db">, userId: number): Promise<AppNotification[]> {
  const rows = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(50);
  return rows.map(toNotification);
}

/** The recipient of a notification, for the own-thing guard; null when there is none. */
export async function notificationOwnerOf({ db }: ServiceDeps<"db">, id: number): Promise<number | null> {
  const [row] = await db.select({ userId: notifications.userId }).from(notifications).where(eq(notifications.id, id));
  return row?.userId ?? null;
}

export async function markRead({ db, clock }: ServiceDeps<"db" | "clock">, userId: number, id: number): Promise<void> {
  const updated = await db
    .update(notifications)
    .set({ readAt: clock.now() })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  if (updated.length === 0) throw notFound("Notification not found");
}
