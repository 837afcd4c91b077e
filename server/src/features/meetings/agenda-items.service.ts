import { and, asc, eq, inArray, ne } from "drizzle-orm";
import { parseAgendaText, type AgendaItem } from "../../../../shared/agenda";
import { meetingLengthMs } from "../../../../shared/meeting-model";
import type { Queryable } from "../../db/client";
import { agendaItemDocuments, agendaItemResolutions, agendaItems, meetings } from "../../db/schema";
import { notFound } from "../../http/errors";

const minuteMs = 60_000;

/**
 * A scheduled meeting's agenda items in order, each with its papers and resolutions (in their order) and its
 * start time: the meeting's start plus the lengths of the items before it. Four queries whatever the length
 * of the agenda, one after the other (a transaction is a single connection); three when the caller has already
 * read the meeting and passes its start. A draft or a missing meeting: 404.
 */
export async function readAgenda(db: Queryable, meetingId: number, known?: { startsAt: Date }): Promise<AgendaItem[]> {
  const [meeting] = known
    ? [known]
    : await db
        .select({ startsAt: meetings.startsAt })
        .from(meetings)
        .where(and(eq(meetings.documentId, meetingId), ne(meetings.status, "draft")));
  if (!meeting) throw notFound("Meeting not found");
  const rows = await db
    .select({
      id: agendaItems.id,
      title: agendaItems.title,
      presenterId: agendaItems.presenterId,
      durationMinutes: agendaItems.durationMinutes,
      description: agendaItems.description,
      purpose: agendaItems.purpose,
    })
    .from(agendaItems)
    .where(eq(agendaItems.meetingId, meetingId))
    .orderBy(asc(agendaItems.position), asc(agendaItems.id));
  if (rows.length === 0) return [];
  const itemIds = rows.map((row) => row.id);
  const papers = await db
    .select({ itemId: agendaItemDocuments.itemId, id: agendaItemDocuments.documentId })
    .from(agendaItemDocuments)
    .where(inArray(agendaItemDocuments.itemId, itemIds))
    .orderBy(asc(agendaItemDocuments.position));
  const resolutionLinks = await db
    .select({ itemId: agendaItemResolutions.itemId, id: agendaItemResolutions.resolutionId })
    .from(agendaItemResolutions)
    .where(inArray(agendaItemResolutions.itemId, itemIds))
    .orderBy(asc(agendaItemResolutions.position));
  const idsByItem = (links: { itemId: number; id: number }[]) => {
    const byItem = new Map<number, number[]>();
    for (const link of links) byItem.set(link.itemId, [...(byItem.get(link.itemId) ?? []), link.id]);
    return byItem;
  };
  const documentsByItem = idsByItem(papers);
  const resolutionsByItem = idsByItem(resolutionLinks);
  let start = meeting.startsAt.getTime();
  return rows.map((row) => {
    const item: AgendaItem = {
      ...row,
      documentIds: documentsByItem.get(row.id) ?? [],
      resolutionIds: resolutionsByItem.get(row.id) ?? [],
      startsAt: new Date(start).toISOString(),
    };
    start += row.durationMinutes * minuteMs;
    return item;
  });
}

/**
 * The items of a meeting being scheduled, from its agenda text (the caller holds the transaction): the numbered
 * list the schedule form is filled with becomes its items, other text one item as long as the meeting, blank none.
 */
export async function insertItemsFromAgendaText(tx: Queryable, meetingId: number, agenda: string): Promise<void> {
  const items = parseAgendaText(agenda, meetingLengthMs / minuteMs);
  if (items.length === 0) return;
  await tx.insert(agendaItems).values(items.map((item, position) => ({ meetingId, position, ...item })));
}
