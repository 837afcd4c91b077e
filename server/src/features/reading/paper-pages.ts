import { and, asc, eq } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { agendaItemDocuments, agendaItems, documentFiles, documents, documentVersions } from "../../db/schema";
import { HttpError, notFound } from "../../http/errors";

// What reading and notes both ask of a paper: whether a version exists and how many pages it has, and which papers
// a meeting's agenda carries.

/** The pages of one version of a paper: its page count, or 1 for a file without one (a Word or text file). 404 when there is no such version. */
export async function pagesOfVersion(db: Queryable, documentId: number, version: number): Promise<number> {
  const [row] = await db
    .select({ pages: documentVersions.pages })
    .from(documentVersions)
    .where(and(eq(documentVersions.documentId, documentId), eq(documentVersions.version, version)));
  if (!row) throw notFound("No such version of this paper");
  return row.pages ?? 1;
}

export const pageCountMessage = (pages: number) => `This version has ${pages} ${pages === 1 ? "page" : "pages"}`;

/** 400 for a page beyond the version's last, named at `path` of the body. */
export function assertPagesWithin(pages: number, asked: readonly number[], path: string): void {
  if (asked.every((page) => page <= pages)) return;
  const message = pageCountMessage(pages);
  throw new HttpError(400, message, {}, [{ path, message }]);
}

export interface MeetingPaper {
  documentId: number;
  name: string;
  version: number;
  /** The latest version's page count; null when unknown. */
  pages: number | null;
}

/** The file papers on a meeting's agenda, in agenda order, each once (a paper on two items is listed at its first): one query. */
export async function meetingPapers(db: Queryable, meetingId: number): Promise<MeetingPaper[]> {
  const rows = await db
    .select({ documentId: documents.id, name: documents.name, version: documents.version, pages: documents.pages })
    .from(agendaItemDocuments)
    .innerJoin(agendaItems, eq(agendaItems.id, agendaItemDocuments.itemId))
    .innerJoin(documents, eq(documents.id, agendaItemDocuments.documentId))
    .innerJoin(documentFiles, eq(documentFiles.documentId, documents.id))
    .where(eq(agendaItems.meetingId, meetingId))
    .orderBy(asc(agendaItems.position), asc(agendaItemDocuments.position), asc(documents.id));
  const seen = new Set<number>();
  return rows.filter((row) => !seen.has(row.documentId) && seen.add(row.documentId));
}
