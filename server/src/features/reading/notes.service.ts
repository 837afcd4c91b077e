import { and, count, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { maxNotesPerPaper, type createNoteSchema, type PaperNote } from "../../../../shared/paper-reading";
import type { ServiceDeps } from "../../app-deps";
import type { Queryable } from "../../db/client";
import { memberships, paperNotes } from "../../db/schema";
import { conflict, notFound } from "../../http/errors";
import type { TenantContext } from "../../http/request-context";
import { pageMapping } from "../documents/paper-text.service";
import { carryNotes, oldPageTexts, pageKey, type PageMapper } from "./notes-carry";
import { openNote, sealNote } from "./note-seal";
import { assertPagesWithin, pagesOfVersion } from "./paper-pages";

type Deps = ServiceDeps<"db" | "clock" | "appSecret" | "outbound" | "logger">;
type NoteRow = typeof paperNotes.$inferSelect;

export const tooManyNotesMessage = `You can keep at most ${maxNotesPerPaper.toLocaleString("en-US")} notes on one paper`;
const noteNotFound = "Note not found";

/** The author of a note while they are still a member of its company, for the own-thing guard; null otherwise. */
export async function noteOwnerOf({ db }: ServiceDeps<"db">, noteId: number): Promise<number | null> {
  const [row] = await db
    .select({ userId: paperNotes.userId })
    .from(paperNotes)
    .innerJoin(memberships, and(eq(memberships.userId, paperNotes.userId), eq(memberships.companyId, paperNotes.companyId)))
    .where(eq(paperNotes.id, noteId));
  return row?.userId ?? null;
}

/** A stored note as its author reads it; an unplaced one with its old page's text when known. */
export function toPaperNote(appSecret: string, row: NoteRow, pageText?: string): PaperNote {
  const words = openNote(appSecret, row.userId, row.sealed);
  return {
    id: row.id,
    documentId: row.documentId,
    version: row.version,
    page: row.page,
    quote: words.quote,
    text: words.text,
    unplaced: row.unplaced,
    ...(row.unplaced && pageText !== undefined ? { pageText } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Where a paper's pages went between two versions (from the versions' text, compared once per pair). */
const pageMapper =
  (deps: Deps): PageMapper =>
  (documentId, fromVersion, toVersion) =>
    pageMapping(deps, documentId, fromVersion, toVersion);

/**
 * The author's notes on some papers (in the order given), each carried to its paper's latest version first, then by
 * page: a fixed number of queries besides one page mapping per paper and older version.
 */
export async function notesOn(deps: Deps, userId: number, documentIds: readonly number[]): Promise<PaperNote[]> {
  if (documentIds.length === 0) return [];
  const rows = await carryNotes(deps.db, pageMapper(deps), userId, documentIds);
  const texts = await oldPageTexts(
    deps.db,
    rows.filter((row) => row.unplaced),
  );
  return rows.map((row) => toPaperNote(deps.appSecret, row, texts.get(pageKey(row))));
}

/** `GET /api/documents/:id/notes`: the caller's own notes on the paper. */
export function listNotes(deps: Deps, userId: number, documentId: number): Promise<PaperNote[]> {
  return notesOn(deps, userId, [documentId]);
}

/**
 * `POST /api/documents/:id/notes`: a note on a page of a version, sealed for its author. At most `maxNotesPerPaper`
 * per author and paper (409), counted under a lock of that pair so two writes at once cannot both pass.
 */
export async function createNote(
  deps: Deps,
  tenant: TenantContext,
  documentId: number,
  input: z.output<typeof createNoteSchema>,
): Promise<PaperNote> {
  const userId = tenant.user.id;
  const row = await deps.db.transaction(async (tx) => {
    const pages = await pagesOfVersion(tx, documentId, input.version);
    assertPagesWithin(pages, [input.page], "page");
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('paper notes'), hashtext(${`${userId}:${documentId}`}))`);
    const [held] = await tx
      .select({ count: count() })
      .from(paperNotes)
      .where(and(eq(paperNotes.userId, userId), eq(paperNotes.documentId, documentId)));
    if (Number(held?.count ?? 0) >= maxNotesPerPaper) throw conflict(tooManyNotesMessage);
    const now = deps.clock.now();
    const [inserted] = await tx
      .insert(paperNotes)
      .values({
        userId,
        companyId: tenant.company.id,
        documentId,
        version: input.version,
        page: input.page,
        sealed: sealNote(deps.appSecret, userId, { text: input.text, quote: input.quote || null }),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return inserted!;
  });
  return toPaperNote(deps.appSecret, row);
}

async function ownNote(db: Queryable, userId: number, noteId: number): Promise<NoteRow> {
  const [row] = await db
    .select()
    .from(paperNotes)
    .where(and(eq(paperNotes.id, noteId), eq(paperNotes.userId, userId)))
    .for("update");
  if (!row) throw notFound(noteNotFound);
  return row;
}

/** `PATCH /api/notes/:id` (the guard has checked the caller wrote it): a new text, the quote kept. */
export async function updateNote(deps: Deps, userId: number, noteId: number, text: string): Promise<PaperNote> {
  const row = await deps.db.transaction(async (tx) => {
    const note = await ownNote(tx, userId, noteId);
    const { quote } = openNote(deps.appSecret, userId, note.sealed);
    const [updated] = await tx
      .update(paperNotes)
      .set({ sealed: sealNote(deps.appSecret, userId, { text, quote }), updatedAt: deps.clock.now() })
      .where(eq(paperNotes.id, noteId))
      .returning();
    return updated!;
  });
  const texts = await oldPageTexts(deps.db, row.unplaced ? [row] : []);
  return toPaperNote(deps.appSecret, row, texts.get(pageKey(row)));
}

/** `DELETE /api/notes/:id` (the guard has checked the caller wrote it). */
export async function deleteNote({ db }: ServiceDeps<"db">, userId: number, noteId: number): Promise<void> {
  const removed = await db
    .delete(paperNotes)
    .where(and(eq(paperNotes.id, noteId), eq(paperNotes.userId, userId)))
    .returning({ id: paperNotes.id });
  if (removed.length === 0) throw notFound(noteNotFound);
}
