import { z } from "zod";
import { answer } from "./answer";
import { integer, queryInteger, text } from "./input";

// Papers that change late: every version of a file kept, what changed between two, and how long one takes to read.

/** Whether a version's text has been taken out page by page: not yet, done, none (no text layer), or failed. */
export const versionTextStatuses = ["pending", "done", "none", "failed"] as const;
export type VersionTextStatus = (typeof versionTextStatuses)[number];

export { pagesPerHour, readingMinutes, readingTimeText } from "./reading-time";

export const maxChangeNoteLength = 500;
export const changeNoteRequiredMessage = "Say what changed in this version";

/** The text fields of `POST /api/documents/:id/versions` (multipart; the file part comes after them). */
export const replaceFieldsSchema = z.object({
  note: text({
    max: maxChangeNoteLength,
    min: 1,
    requiredMessage: changeNoteRequiredMessage,
    maxMessage: `A change note holds at most ${maxChangeNoteLength} characters`,
  }),
});
export type ReplaceFields = z.output<typeof replaceFieldsSchema>;

/** One version in a paper's history. */
export const documentVersionSchema = answer.object({
  version: answer.number().int(),
  uploadedBy: answer.string().nullable(),
  uploadedAt: answer.string(),
  note: answer.string().nullable(),
  fileSize: answer.number().int(),
  fileType: answer.string(),
  pages: answer.number().int().nullable(),
});
export type DocumentVersion = z.infer<typeof documentVersionSchema>;

/** No paper is replaced anywhere near this often; a version number in a path or query is refused beyond it. */
export const maxVersion = 99_999;

export const compareQuerySchema = z.object({
  from: queryInteger({ min: 1, max: maxVersion, message: "from must be a version number" }),
  to: queryInteger({ min: 1, max: maxVersion, message: "to must be a version number" }),
});
export type CompareQuery = z.input<typeof compareQuerySchema>;

export const lineChangeOps = ["same", "add", "del"] as const;
export const pageChanges = ["same", "changed", "added", "removed"] as const;

const lineSchema = answer.object({ op: answer.enum(lineChangeOps), text: answer.string() });
export type ComparedLine = z.infer<typeof lineSchema>;

/** A page of the newer version matched to the older's (`fromPage` null: added; `toPage` null: removed). */
const comparedPageSchema = answer.object({
  fromPage: answer.number().int().nullable(),
  toPage: answer.number().int().nullable(),
  change: answer.enum(pageChanges),
  lines: answer.optional(answer.array(lineSchema)),
});
export type ComparedPage = z.infer<typeof comparedPageSchema>;

/** What changed: PDFs page by page, text files (and Word files' text) line by line, anything else changed or not. */
export const comparisonSchema = answer.union([
  answer.object({ pages: answer.array(comparedPageSchema) }),
  answer.object({ lines: answer.array(lineSchema) }),
  answer.object({ changed: answer.boolean() }),
]);
export type Comparison = z.infer<typeof comparisonSchema>;

/** The versions a comparison may name: at least two, an older and a newer. */
export const sameVersionsMessage = "Compare two different versions";
export const pageIndex = (message: string) => integer({ min: 1, max: 100_000, message });
