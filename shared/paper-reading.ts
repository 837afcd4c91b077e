import { z } from "zod";
import { answer } from "./answer";
import { notesRetentionRange } from "./governance-options";
import { integer, text } from "./input";

export { notesRetentionRange } from "./governance-options";
import { pageIndex } from "./paper-versions";

// What a director reads: the pages they have opened, their private notes, and (for the secretary, when the board
// allows it) who has opened the pack and each paper.

/** `POST /api/documents/:id/reads`: pages of one version the caller has opened. */
export const maxPagesPerRead = 500;
export const recordReadsSchema = z.object({
  version: integer({ min: 1, max: 99_999, message: "Version must be a version number" }),
  pages: z
    .array(pageIndex("Pages must be page numbers"), { message: "Pages must be a list of page numbers" })
    .min(1, "Name at least one page")
    .max(maxPagesPerRead, `At most ${maxPagesPerRead} pages at once`),
});
export type RecordReadsInput = z.input<typeof recordReadsSchema>;

/** The caller's own progress through a meeting's papers, and the share of the pack's pages they have opened. */
export const meetingReadingSchema = answer.object({
  papers: answer.array(
    answer.object({ documentId: answer.number().int(), pages: answer.number().int().nullable(), pagesRead: answer.number().int() }),
  ),
  packShare: answer.number(),
});
export type MeetingReading = z.infer<typeof meetingReadingSchema>;

/** The secretary's view: which directors have opened the pack and which papers (never pages or time). */
export const boardReadingSchema = answer.array(
  answer.object({
    userId: answer.number().int(),
    name: answer.string(),
    packOpened: answer.boolean(),
    opened: answer.array(answer.number().int()),
  }),
);
export type BoardReading = z.infer<typeof boardReadingSchema>;

export const maxNoteTextLength = 10_000;
export const noteTextTooLongMessage = `A note holds at most ${maxNoteTextLength.toLocaleString("en-US")} characters`;
/** The words a note is pinned to, as highlighted. */
export const maxQuoteLength = 2_000;

const noteText = text({ max: maxNoteTextLength, min: 1, requiredMessage: "Write the note", maxMessage: noteTextTooLongMessage });

export const createNoteSchema = z.object({
  version: integer({ min: 1, max: 99_999, message: "Version must be a version number" }),
  page: pageIndex("Page must be a page number"),
  quote: z.optional(z.nullable(text({ max: maxQuoteLength, maxMessage: `A highlight holds at most ${maxQuoteLength} characters` }))),
  text: noteText,
});
export type CreateNoteInput = z.input<typeof createNoteSchema>;

export const updateNoteSchema = z.object({ text: noteText });
export type UpdateNoteInput = z.input<typeof updateNoteSchema>;

/** A note, to its author alone. An unplaced note's page is gone from the latest version: `pageText` is that page's text. */
export const paperNoteSchema = answer.object({
  id: answer.number().int(),
  documentId: answer.number().int(),
  version: answer.number().int(),
  page: answer.number().int(),
  quote: answer.string().nullable(),
  text: answer.string(),
  unplaced: answer.boolean(),
  pageText: answer.optional(answer.string()),
  createdAt: answer.string(),
  updatedAt: answer.string(),
});
export type PaperNote = z.infer<typeof paperNoteSchema>;

export const noteExportFormats = ["md", "pdf"] as const;
export const noteExportQuerySchema = z.object({
  format: z._default(z.enum(noteExportFormats, { error: "Format must be md or pdf" }), "md"),
});

/** The reading fields of a company's settings form; each absent one is left as it is. */
export const readingSettingsFields = {
  readReceipts: z.optional(z.boolean({ error: "Read receipts must be on or off" })),
  notesRetentionDays: z.optional(
    z.nullable(
      integer({
        ...notesRetentionRange,
        message: `Notes must be kept, or deleted after a whole number of days from ${notesRetentionRange.min} to ${notesRetentionRange.max}`,
      }),
    ),
  ),
};
export const readingSettingsAnswerFields = {
  readReceipts: answer.boolean(),
  notesRetentionDays: answer.number().int().nullable(),
};

/** Notes one author may keep on one paper: a bound on what one member can make the server store. */
export const maxNotesPerPaper = 1_000;
