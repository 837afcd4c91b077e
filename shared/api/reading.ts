import { z } from "zod";
import {
  boardReadingSchema,
  createNoteSchema,
  meetingReadingSchema,
  noteExportQuerySchema,
  paperNoteSchema,
  recordReadsSchema,
  updateNoteSchema,
} from "../paper-reading";
import { endpoint } from "./endpoint";

const tag = "Reading";
const documentById = { class: "thing", thing: "document", param: "id" } as const;
const meetingById = { class: "thing", thing: "meeting", param: "id" } as const;
const ownNote = { class: "own-user", by: "owner", thing: "note" } as const;

export const recordReads = endpoint({
  method: "POST",
  path: "/api/documents/:id/reads",
  summary: "Records pages of one version of a paper the caller has opened (their own progress; opened-or-not for read receipts)",
  tag,
  access: documentById,
  body: recordReadsSchema,
  responses: { 204: null },
  errors: { 400: "A page the version does not have", 404: "No such document or version" },
});

export const recordPackOpened = endpoint({
  method: "POST",
  path: "/api/meetings/:id/reading/pack",
  summary: "Records that the caller has opened the meeting's board pack",
  tag,
  access: meetingById,
  responses: { 204: null },
});

export const meetingReading = endpoint({
  method: "GET",
  path: "/api/meetings/:id/reading",
  summary: "The caller's own progress through a meeting's papers: each paper's pages and pages opened, and the pack's share opened",
  tag,
  access: meetingById,
  responses: { 200: meetingReadingSchema },
});

export const boardReading = endpoint({
  method: "GET",
  path: "/api/meetings/:id/reading/board",
  summary:
    "Which directors have opened the pack and each paper, opened or not, never pages or time (founders, admins, the meeting's " +
    "creator), when the company keeps read receipts on",
  tag,
  access: meetingById,
  responses: { 200: boardReadingSchema },
  errors: { 403: "The caller is not a founder, an admin or the meeting's creator, or the company has turned read receipts off" },
});

export const listNotes = endpoint({
  method: "GET",
  path: "/api/documents/:id/notes",
  summary:
    "The caller's own notes on a paper, each on its page of the latest version (carried over from earlier versions to the page " +
    "whose text matches best), or unplaced with its old page's text when that page is gone",
  tag,
  access: documentById,
  responses: { 200: z.array(paperNoteSchema) },
});

export const createNote = endpoint({
  method: "POST",
  path: "/api/documents/:id/notes",
  summary: "Writes a private note on a page of a version, optionally pinned to highlighted words; only its author ever sees it",
  tag,
  access: documentById,
  body: createNoteSchema,
  responses: { 201: paperNoteSchema },
  errors: { 400: "A page the version does not have, or a note over 10,000 characters", 404: "No such document or version" },
});

export const updateNote = endpoint({
  method: "PATCH",
  path: "/api/notes/:id",
  summary: "Changes the text of one of the caller's notes",
  tag,
  access: ownNote,
  body: updateNoteSchema,
  responses: { 200: paperNoteSchema },
});

export const deleteNote = endpoint({
  method: "DELETE",
  path: "/api/notes/:id",
  summary: "Deletes one of the caller's notes",
  tag,
  access: ownNote,
  responses: { 204: null },
});

export const exportNotes = endpoint({
  method: "GET",
  path: "/api/meetings/:id/notes/export",
  summary: "The caller's own notes on a meeting's papers, as Markdown or PDF (an attachment)",
  tag,
  access: meetingById,
  query: noteExportQuerySchema,
  responses: {
    200: { contentType: "text/markdown", description: "The notes, by paper and page, as Markdown (format=md) or a PDF (format=pdf)" },
  },
});
