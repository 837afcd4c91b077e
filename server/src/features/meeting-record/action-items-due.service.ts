import { and, asc, eq } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { actionItems, meetings, memberships } from "../../db/schema";

/**
 * The open action items due on a date (YYYY-MM-DD) whose owner is still a member of the item's company, with the
 * title of the meeting each came from, in id order.
 */
export function openActionItemsDueOn(db: Queryable, dueDate: string) {
  return db
    .select({
      id: actionItems.id,
      companyId: actionItems.companyId,
      meetingId: actionItems.meetingId,
      meetingTitle: meetings.title,
      title: actionItems.title,
      ownerId: actionItems.ownerId,
      dueDate: actionItems.dueDate,
    })
    .from(actionItems)
    .innerJoin(meetings, eq(meetings.documentId, actionItems.meetingId))
    .innerJoin(memberships, and(eq(memberships.companyId, actionItems.companyId), eq(memberships.userId, actionItems.ownerId)))
    .where(and(eq(actionItems.status, "open"), eq(actionItems.dueDate, dueDate)))
    .orderBy(asc(actionItems.id));
}
