// Reading action items with their owner's name and their meeting's title: one query, whatever the list's length.
import { asc, eq, type SQL } from "drizzle-orm";
import type { ActionItem } from "../../../../shared/meeting-record";
import { displayName } from "../../../../shared/people";
import type { Queryable } from "../../db/client";
import { actionItems, meetings, users } from "../../db/schema";
import { nameColumns } from "../../db/columns";

/**
 * The action items matching `where`, soonest due first (so overdue ones lead), then in the order they were made.
 * Open and done items are in one order: a caller who wants open ones first filters by status.
 */
export async function readActionItems(db: Queryable, where: SQL | undefined): Promise<ActionItem[]> {
  const rows = await db
    .select({
      id: actionItems.id,
      meetingId: actionItems.meetingId,
      meetingTitle: meetings.title,
      title: actionItems.title,
      ownerId: actionItems.ownerId,
      ...nameColumns,
      dueDate: actionItems.dueDate,
      status: actionItems.status,
    })
    .from(actionItems)
    .innerJoin(meetings, eq(meetings.documentId, actionItems.meetingId))
    .innerJoin(users, eq(users.id, actionItems.ownerId))
    .where(where)
    .orderBy(asc(actionItems.dueDate), asc(actionItems.id));
  return rows.map(({ firstName, lastName, username, ...item }) => ({ ...item, ownerName: displayName({ firstName, lastName, username }) }));
}

/** A meeting's action items. */
export function readMeetingActionItems(db: Queryable, meetingId: number): Promise<ActionItem[]> {
  return readActionItems(db, eq(actionItems.meetingId, meetingId));
}
