import { and, desc, eq, isNull } from "drizzle-orm";
import type { Clock } from "../../clock";
import type { Database, Queryable } from "../../db/client";
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

/** One insert for any number of recipients. */
export async function notify(db: Queryable, items: NewNotification[]): Promise<void> {
  if (items.length === 0) return;
  await db.insert(notifications).values(items);
}

/** The caller's unread notifications, newest first (at most 50). */
export async function listUnread(db: Database, userId: number) {
  return db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      title: notifications.title,
      body: notifications.body,
      link: notifications.link,
      companyId: notifications.companyId,
      readAt: notifications.readAt,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .orderBy(desc(notifications.createdAt))
    .limit(50);
}

export async function markRead(db: Database, clock: Clock, userId: number, id: number): Promise<void> {
  const updated = await db
    .update(notifications)
    .set({ readAt: clock.now() })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  if (updated.length === 0) throw notFound("Notification not found");
}
