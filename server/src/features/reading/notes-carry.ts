import { and, eq, inArray, sql } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { documentPageTexts, documents, paperNotes } from "../../db/schema";

// A paper replaced by a new version takes its notes along: each note moves to the page of the latest version whose
// text matches its page best. A note whose page is gone stays where it was written, marked unplaced, and is shown
// with that page's text; a note is never lost.

type NoteRow = typeof paperNotes.$inferSelect;

/** Where each page of one version went in another: the new page, or null when it is gone. */
export type PageMapper = (documentId: number, fromVersion: number, toVersion: number) => Promise<Map<number, number | null>>;

export const pageKey = (row: { documentId: number; version: number; page: number }) => `${row.documentId}:${row.version}:${row.page}`;

/**
 * The author's notes on these papers, each carried to its paper's latest version first (the move is stored). The
 * mappings are asked for outside any transaction (working one out may read the versions' text); the moves are one
 * statement, which moves a note only if nobody moved or changed its place meanwhile. Two queries, and one mapping
 * per paper and older version, whatever the number of notes.
 */
export async function carryNotes(db: Queryable, mapPages: PageMapper, userId: number, documentIds: readonly number[]): Promise<NoteRow[]> {
  const rows = await db
    .select({ note: paperNotes, latest: documents.version })
    .from(paperNotes)
    .innerJoin(documents, eq(documents.id, paperNotes.documentId))
    .where(and(eq(paperNotes.userId, userId), inArray(paperNotes.documentId, [...documentIds])));
  const behind = rows.filter(({ note, latest }) => note.version < latest);
  const mappings = new Map<string, Map<number, number | null> | null>();
  for (const { note, latest } of behind) {
    const key = `${note.documentId}:${note.version}`;
    if (mappings.has(key)) continue;
    // A comparison that cannot be made now (text not read yet) leaves the note where it is until the next read.
    mappings.set(key, await mapPages(note.documentId, note.version, latest).catch(() => null));
  }
  const moves: { id: number; version: number; page: number; unplaced: boolean; fromVersion: number; fromPage: number }[] = [];
  for (const { note, latest } of behind) {
    const mapping = mappings.get(`${note.documentId}:${note.version}`);
    if (!mapping) continue;
    const page = mapping.get(note.page) ?? null;
    if (page !== null) moves.push({ id: note.id, version: latest, page, unplaced: false, fromVersion: note.version, fromPage: note.page });
    else if (!note.unplaced)
      moves.push({ id: note.id, version: note.version, page: note.page, unplaced: true, fromVersion: note.version, fromPage: note.page });
  }
  const moved = new Map<number, NoteRow>();
  if (moves.length > 0) {
    const values = sql.join(
      moves.map(
        (move) =>
          sql`(${move.id}::int, ${move.version}::int, ${move.page}::int, ${move.unplaced}::boolean, ${move.fromVersion}::int, ${move.fromPage}::int)`,
      ),
      sql`, `,
    );
    const updated = await db.execute(sql`
      update ${paperNotes} set version = m.version, page = m.page, unplaced = m.unplaced
      from (values ${values}) as m(id, version, page, unplaced, from_version, from_page)
      where ${paperNotes.id} = m.id and ${paperNotes.version} = m.from_version and ${paperNotes.page} = m.from_page
      returning ${paperNotes.id} as id, ${paperNotes.version} as version, ${paperNotes.page} as page, ${paperNotes.unplaced} as unplaced`);
    for (const row of (updated as unknown as { rows: { id: number; version: number; page: number; unplaced: boolean }[] }).rows) {
      const before = rows.find(({ note }) => note.id === Number(row.id))!.note;
      moved.set(before.id, { ...before, version: Number(row.version), page: Number(row.page), unplaced: Boolean(row.unplaced) });
    }
  }
  const order = new Map(documentIds.map((id, index) => [id, index]));
  return rows
    .map(({ note }) => moved.get(note.id) ?? note)
    .sort(
      (a, b) =>
        order.get(a.documentId)! - order.get(b.documentId)! ||
        Number(a.unplaced) - Number(b.unplaced) ||
        a.page - b.page ||
        a.createdAt.getTime() - b.createdAt.getTime() ||
        a.id - b.id,
    );
}

/** The text of the pages unplaced notes were written on, by "document:version:page" (one query). */
export async function oldPageTexts(db: Queryable, notes: readonly NoteRow[]): Promise<Map<string, string>> {
  if (notes.length === 0) return new Map();
  const places = sql.join(
    notes.map((note) => sql`(${note.documentId}::int, ${note.version}::int, ${note.page}::int)`),
    sql`, `,
  );
  const rows = await db
    .select({
      documentId: documentPageTexts.documentId,
      version: documentPageTexts.version,
      page: documentPageTexts.page,
      text: documentPageTexts.text,
    })
    .from(documentPageTexts)
    .where(sql`(${documentPageTexts.documentId}, ${documentPageTexts.version}, ${documentPageTexts.page}) in (${places})`);
  return new Map(rows.map((row) => [pageKey(row), row.text]));
}
