import { and, eq, inArray, ne, notInArray, sql } from "drizzle-orm";
import { formatAgendaItems, type AgendaItem, type AgendaItemValues } from "../../../../shared/agenda";
import { meetingCategory } from "../../../../shared/meeting-model";
import { canEditAgenda, deniedMessage } from "../../../../shared/permissions";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import type { Transaction } from "../../db/client";
import { agendaItemDocuments, agendaItemResolutions, agendaItems, documents, meetings, memberships, resolutions } from "../../db/schema";
import { conflict, forbidden, HttpError, notFound } from "../../http/errors";
import type { TenantContext } from "../../http/request-context";
import { readAgenda } from "./agenda-items.service";
import { meetingContents } from "./meetings.service";

const refused = (status: number, path: string, message: string) => new HttpError(status, message, {}, [{ path, message }]);

/** The first item (by position) that names an id outside `valid`, as the path of its field; null when none does. */
function firstInvalid(items: readonly AgendaItemValues[], field: "documentIds" | "resolutionIds", valid: ReadonlySet<number>) {
  const index = items.findIndex((item) => item[field].some((id) => !valid.has(id)));
  return index < 0 ? null : `items.${index}.${field}`;
}

const unique = (ids: readonly number[]) => [...new Set(ids)];

/**
 * Refuses an item that names something it may not: an item of another meeting (400), a presenter who is not a
 * member (400), a paper that is not one of the company's library documents (404), another company's resolution
 * (404). At most four queries, whatever the number of items.
 */
async function checkReferences(tx: Transaction, meetingId: number, companyId: number, items: readonly AgendaItemValues[]): Promise<void> {
  const current = await tx.select({ id: agendaItems.id }).from(agendaItems).where(eq(agendaItems.meetingId, meetingId));
  const currentIds = new Set(current.map((row) => row.id));
  const foreignItem = items.findIndex((item) => item.id !== undefined && !currentIds.has(item.id));
  if (foreignItem >= 0) throw refused(400, `items.${foreignItem}.id`, "The item is not on this meeting's agenda");

  const presenterIds = unique(items.flatMap((item) => (item.presenterId == null ? [] : [item.presenterId])));
  if (presenterIds.length > 0) {
    const rows = await tx
      .select({ id: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.companyId, companyId), inArray(memberships.userId, presenterIds)));
    const members = new Set(rows.map((row) => row.id));
    const index = items.findIndex((item) => item.presenterId != null && !members.has(item.presenterId));
    if (index >= 0) throw refused(400, `items.${index}.presenterId`, "The presenter must be a member of the company");
  }

  const documentIds = unique(items.flatMap((item) => item.documentIds));
  if (documentIds.length > 0) {
    // A meeting is a document too, but never a paper of another meeting.
    const rows = await tx
      .select({ id: documents.id })
      .from(documents)
      .where(and(inArray(documents.id, documentIds), eq(documents.companyId, companyId), ne(documents.category, meetingCategory)));
    const path = firstInvalid(items, "documentIds", new Set(rows.map((row) => row.id)));
    if (path) throw refused(404, path, "Document not found");
  }

  const resolutionIds = unique(items.flatMap((item) => item.resolutionIds));
  if (resolutionIds.length > 0) {
    const rows = await tx
      .select({ id: resolutions.id })
      .from(resolutions)
      .where(and(inArray(resolutions.id, resolutionIds), eq(resolutions.companyId, companyId)));
    const path = firstInvalid(items, "resolutionIds", new Set(rows.map((row) => row.id)));
    if (path) throw refused(404, path, "Resolution not found");
  }
}

/**
 * Writes the items in their order: removes the current ones not sent back, updates those sent back with their
 * id and inserts the others in one upsert, then replaces every kept item's links. A fixed number of statements
 * whatever the number of items.
 */
async function writeItems(tx: Transaction, meetingId: number, items: readonly AgendaItemValues[]): Promise<void> {
  const keptIds = items.flatMap((item) => (item.id === undefined ? [] : [item.id]));
  if (keptIds.length > 0) {
    // Removed items take their links with them (cascade); a kept item's links are written afresh below.
    await tx.delete(agendaItemDocuments).where(inArray(agendaItemDocuments.itemId, keptIds));
    await tx.delete(agendaItemResolutions).where(inArray(agendaItemResolutions.itemId, keptIds));
  }
  await tx
    .delete(agendaItems)
    .where(
      keptIds.length > 0
        ? and(eq(agendaItems.meetingId, meetingId), notInArray(agendaItems.id, keptIds))
        : eq(agendaItems.meetingId, meetingId),
    );
  if (items.length === 0) return;

  const excluded = (column: { name: string }) => sql.raw(`excluded."${column.name}"`);
  const written = await tx
    .insert(agendaItems)
    .values(
      items.map((item, position) => ({
        // Without an id the column's default numbers a new item.
        id: item.id,
        meetingId,
        position,
        title: item.title,
        presenterId: item.presenterId ?? null,
        durationMinutes: item.durationMinutes,
        description: item.description ?? "",
        purpose: item.purpose,
      })),
    )
    .onConflictDoUpdate({
      target: agendaItems.id,
      set: {
        position: excluded(agendaItems.position),
        title: excluded(agendaItems.title),
        presenterId: excluded(agendaItems.presenterId),
        durationMinutes: excluded(agendaItems.durationMinutes),
        description: excluded(agendaItems.description),
        purpose: excluded(agendaItems.purpose),
      },
    })
    .returning({ id: agendaItems.id, position: agendaItems.position });
  // RETURNING promises no order: each row is matched back to its item by position.
  const idsByPosition: number[] = [];
  for (const row of written) idsByPosition[row.position] = row.id;

  const papers = items.flatMap((item, index) =>
    item.documentIds.map((documentId, position) => ({ itemId: idsByPosition[index]!, documentId, position })),
  );
  if (papers.length > 0) await tx.insert(agendaItemDocuments).values(papers);
  const motions = items.flatMap((item, index) =>
    item.resolutionIds.map((resolutionId, position) => ({ itemId: idsByPosition[index]!, resolutionId, position })),
  );
  if (motions.length > 0) await tx.insert(agendaItemResolutions).values(motions);
}

/**
 * `PUT /api/meetings/:id/agenda`: replaces the meeting's agenda in one transaction, under the meeting's row lock
 * so two edits at once apply one after the other. The meeting's agenda text becomes the items as a numbered list
 * (its document's size follows); the request schema has already refused items whose list would outgrow a typed agenda. Founders, admins and the meeting's creator; a cancelled meeting's is frozen (409).
 */
export async function replaceAgenda(
  deps: ServiceDeps<"db" | "clock">,
  tenant: TenantContext,
  meetingId: number,
  items: readonly AgendaItemValues[],
): Promise<{ items: AgendaItem[] }> {
  return deps.db.transaction(async (tx) => {
    const [meeting] = await tx
      .select({ companyId: meetings.companyId, createdBy: meetings.createdBy, status: meetings.status })
      .from(meetings)
      .where(and(eq(meetings.documentId, meetingId), ne(meetings.status, "draft")))
      .for("update");
    if (!meeting) throw notFound("Meeting not found");
    if (!canEditAgenda(tenant.role, meeting.createdBy === tenant.user.id)) throw forbidden(deniedMessage("editAnyAgenda"));
    if (meeting.status === "cancelled") throw conflict("A cancelled meeting's agenda cannot be changed");

    await checkReferences(tx, meetingId, meeting.companyId, items);
    await writeItems(tx, meetingId, items);

    const agenda = formatAgendaItems(items.map((item) => ({ ...item, description: item.description ?? "" })));
    await tx.update(meetings).set({ agenda }).where(eq(meetings.documentId, meetingId));
    // The document's size is that of its content, which carries the agenda text.
    const content = (await meetingContents(tx, [meetingId])).get(meetingId) ?? "";
    await tx
      .update(documents)
      .set({ fileSize: Buffer.byteLength(content, "utf8") })
      .where(eq(documents.id, meetingId));
    await recordAudit(tx, deps.clock, {
      actorId: tenant.user.id,
      companyId: meeting.companyId,
      action: "meeting.agenda_updated",
      targetType: "meeting",
      targetId: meetingId,
      details: { items: items.map((item) => item.title) },
    });
    return { items: await readAgenda(tx, meetingId) };
  });
}
