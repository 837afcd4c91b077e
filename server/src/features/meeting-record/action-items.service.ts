// A meeting's action items: given by those who keep its record, marked done by their owner, changed by founders
// and admins. Lists read through action-items.data.ts, one query whatever their length.
import { and, eq, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { ActionItem, actionItemsQuerySchema, createActionItemSchema, updateActionItemSchema } from "../../../../shared/meeting-record";
import { can, deniedMessage } from "../../../../shared/permissions";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import type { Transaction } from "../../db/client";
import { actionItems, meetings, memberships } from "../../db/schema";
import { conflict, forbidden, HttpError, notFound } from "../../http/errors";
import type { TenantContext } from "../../http/request-context";
import { readActionItems } from "./action-items.data";
import { recordedMeeting, requireRecordKeeper } from "./attendance.data";

type ActionItemDeps = ServiceDeps<"db" | "clock">;

export const ownerNotMemberMessage = "Owner must be a member of the company";
export const dueBeforeMeetingMessage = "Due date must be on or after the meeting's date";
export const cancelledMeetingItemsMessage = "A cancelled meeting gives no action items";

const invalid = (path: string, message: string) => new HttpError(400, message, {}, [{ path, message }]);

/** The UTC calendar date of a moment ("2026-06-01"): what a due date is compared with. */
const utcDay = (moment: Date) => moment.toISOString().slice(0, 10);

/** `GET /api/companies/:companyId/action-items`: the company's items, by owner ("me" is the caller) and status. */
export function listCompanyActionItems(
  deps: ServiceDeps<"db">,
  tenant: TenantContext,
  companyId: number,
  query: z.output<typeof actionItemsQuerySchema>,
): Promise<ActionItem[]> {
  const conditions: SQL[] = [eq(actionItems.companyId, companyId)];
  if (query.owner !== undefined) conditions.push(eq(actionItems.ownerId, query.owner === "me" ? tenant.user.id : query.owner));
  if (query.status) conditions.push(eq(actionItems.status, query.status));
  return readActionItems(deps.db, and(...conditions));
}

async function requireMember(tx: Transaction, companyId: number, userId: number): Promise<void> {
  const [member] = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId)));
  if (!member) throw invalid("ownerId", ownerNotMemberMessage);
}

function requireDueOnOrAfter(dueDate: string, meetingStartsAt: Date): void {
  // Both are YYYY-MM-DD, so comparing the strings compares the dates.
  if (dueDate < utcDay(meetingStartsAt)) throw invalid("dueDate", dueBeforeMeetingMessage);
}

async function readOne(tx: Transaction, itemId: number): Promise<ActionItem> {
  const [item] = await readActionItems(tx, eq(actionItems.id, itemId));
  if (!item) throw new Error("the action item just written is gone");
  return item;
}

/**
 * `POST /api/meetings/:id/action-items` (the guard has checked the company): for whoever keeps the meeting's
 * record. The meeting's row is share-locked, so a cancellation waits for the item (or the item sees it).
 */
export async function createActionItem(
  deps: ActionItemDeps,
  tenant: TenantContext,
  meetingId: number,
  input: z.output<typeof createActionItemSchema>,
): Promise<ActionItem> {
  return deps.db.transaction(async (tx) => {
    const meeting = await recordedMeeting(tx, meetingId, "share");
    requireRecordKeeper(meeting, { userId: tenant.user.id, role: tenant.role });
    if (meeting.status === "cancelled") throw conflict(cancelledMeetingItemsMessage);
    await requireMember(tx, meeting.companyId, input.ownerId);
    requireDueOnOrAfter(input.dueDate, meeting.startsAt);

    const [created] = await tx
      .insert(actionItems)
      .values({
        companyId: meeting.companyId,
        meetingId,
        title: input.title,
        ownerId: input.ownerId,
        dueDate: input.dueDate,
        createdBy: tenant.user.id,
        createdAt: deps.clock.now(),
      })
      .returning({ id: actionItems.id });
    if (!created) throw new Error("action item insert returned nothing");
    await recordAudit(tx, deps.clock, {
      actorId: tenant.user.id,
      companyId: meeting.companyId,
      action: "action_item.created",
      targetType: "action_item",
      targetId: created.id,
      details: { meetingId, ownerId: input.ownerId, dueDate: input.dueDate },
    });
    return readOne(tx, created.id);
  });
}

/**
 * `PATCH /api/action-items/:id` (the guard has checked the company): its owner may mark it done or open; founders
 * and admins may change anything. A field sent with its stored value changes nothing, so the owner's form may
 * send the whole item. The item's row is locked for the change.
 */
export async function updateActionItem(
  deps: ActionItemDeps,
  tenant: TenantContext,
  itemId: number,
  update: z.output<typeof updateActionItemSchema>,
): Promise<ActionItem> {
  return deps.db.transaction(async (tx) => {
    const [stored] = await tx
      .select({
        companyId: actionItems.companyId,
        title: actionItems.title,
        ownerId: actionItems.ownerId,
        dueDate: actionItems.dueDate,
        status: actionItems.status,
        meetingStartsAt: meetings.startsAt,
      })
      .from(actionItems)
      .innerJoin(meetings, eq(meetings.documentId, actionItems.meetingId))
      .where(eq(actionItems.id, itemId))
      .for("update", { of: actionItems });
    if (!stored) throw notFound("Action item not found");

    const changes: { title?: string; ownerId?: number; dueDate?: string } = {};
    if (update.title !== undefined && update.title !== stored.title) changes.title = update.title;
    if (update.ownerId !== undefined && update.ownerId !== stored.ownerId) changes.ownerId = update.ownerId;
    if (update.dueDate !== undefined && update.dueDate !== stored.dueDate) changes.dueDate = update.dueDate;
    const isOwner = stored.ownerId === tenant.user.id;
    if (!can(tenant.role, "editActionItems") && (!isOwner || Object.keys(changes).length > 0)) {
      throw forbidden(deniedMessage("editActionItems"));
    }
    if (changes.ownerId !== undefined) await requireMember(tx, stored.companyId, changes.ownerId);
    if (changes.dueDate !== undefined) requireDueOnOrAfter(changes.dueDate, stored.meetingStartsAt);
    const status = update.status !== undefined && update.status !== stored.status ? update.status : undefined;
    if (Object.keys(changes).length === 0 && status === undefined) return readOne(tx, itemId);

    const completion = status === undefined ? {} : { status, completedAt: status === "done" ? deps.clock.now() : null };
    await tx
      .update(actionItems)
      .set({ ...changes, ...completion })
      .where(eq(actionItems.id, itemId));
    await recordAudit(tx, deps.clock, {
      actorId: tenant.user.id,
      companyId: stored.companyId,
      action: "action_item.updated",
      targetType: "action_item",
      targetId: itemId,
      details: { ...changes, ...(status === undefined ? {} : { status }) },
    });
    return readOne(tx, itemId);
  });
}
