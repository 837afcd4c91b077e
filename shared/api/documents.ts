import { z } from "zod";
import {
  createDocumentSchema,
  documentListQuerySchema,
  documentListItemSchema,
  documentObjectSchema,
  downloadQuerySchema,
  libraryDocumentSchema,
  recentDocumentSchema,
} from "../documents";
import { compareQuerySchema, comparisonSchema, documentVersionSchema } from "../paper-versions";
import { endpoint } from "./endpoint";

const tag = "Documents";
const activeCompany = { class: "company", by: "active" } as const;
const documentById = { class: "thing", thing: "document", param: "id" } as const;
const byCompany = { class: "company", by: "param", param: "companyId" } as const;

export const listDocuments = endpoint({
  method: "GET",
  path: "/api/documents",
  summary:
    "The caller's active company's documents (files, notes and meetings), newest first; never file bytes, and a note's text " +
    "cut to its first 300 characters (`truncated` when there is more); `category` keeps one category",
  tag,
  access: activeCompany,
  query: documentListQuerySchema,
  responses: { 200: z.array(documentListItemSchema) },
});

export const getDocument = endpoint({
  method: "GET",
  path: "/api/documents/:id",
  summary: "One document: a file's metadata and description, a note with its whole text, or a meeting with its JSON content",
  tag,
  access: documentById,
  responses: { 200: documentObjectSchema },
});

export const createDocument = endpoint({
  method: "POST",
  path: "/api/documents",
  summary: "Add a document to the caller's active company: upload a file, write a note, or schedule a meeting (category Meeting)",
  tag,
  access: activeCompany,
  body: createDocumentSchema,
  streamedBody: [
    {
      contentType: "multipart/form-data",
      description:
        "The app's upload: the fields name, category, description, companyId and uploadedBy, then the file part, checked and " +
        "stored as it arrives. The JSON body is read as a stream too: a file given as a data: URL in `content` is decoded, " +
        "checked and stored as it arrives",
    },
  ],
  responses: { 201: documentObjectSchema },
  errors: {
    400: "A field is invalid, or a note's text is longer than 100,000 characters",
    403: "The caller is not a member of the company, or their role may not upload a file (or schedule a meeting)",
    413: "The file is larger than 20 MB, or the body larger than its limit",
    415: "The file's type is not accepted (or does not match its content), or the body is compressed",
  },
});

export const downloadDocument = endpoint({
  method: "GET",
  path: "/api/documents/:id/download",
  summary:
    "A document's file (its latest version), as stored (revalidated by its ETag); `inline=1` to show it in the browser; answers " +
    "a byte Range (Accept-Ranges: bytes), so a reader can show a PDF's first page before the whole file has arrived",
  tag,
  access: documentById,
  query: downloadQuerySchema,
  responses: {
    200: {
      contentType: "application/octet-stream",
      description: "The file's bytes, served as its stored type, as an attachment (or inline) under its name",
    },
    206: {
      contentType: "application/octet-stream",
      description:
        "The one byte range asked for (`Range: bytes=a-b`, `a-` or `-n`), with Content-Range; more than one range is answered whole (200)",
    },
    304: null,
  },
  errors: {
    404: "No such document, another company's, or one without a file (a note or a meeting)",
    416: "The Range asked for lies outside the file (with Content-Range: bytes */size)",
  },
});

export const deleteDocument = endpoint({
  method: "DELETE",
  path: "/api/documents/:id",
  summary: "Delete a document and its file: its uploader may (unless an observer), and so may a founder or admin",
  tag,
  access: documentById,
  responses: { 204: null },
  errors: {
    403: "The caller's role may not delete this document",
    409: "The document is a meeting: a meeting is cancelled, never deleted",
  },
});

export const listLibrary = endpoint({
  method: "GET",
  path: "/api/companies/:companyId/documents",
  summary:
    "A company's library: its documents that are not meetings, newest first, with their uploader; a note's text cut to its first " +
    "300 characters (`truncated` when there is more)",
  tag,
  access: byCompany,
  responses: { 200: z.array(libraryDocumentSchema) },
});

export const recentDocuments = endpoint({
  method: "GET",
  path: "/api/companies/:companyId/documents/recent",
  summary: "A company's five newest library documents, for the dashboard",
  tag,
  access: byCompany,
  responses: { 200: z.array(recentDocumentSchema) },
});

export const replaceDocument = endpoint({
  method: "POST",
  path: "/api/documents/:id/versions",
  summary:
    "Replaces a paper's file with a new version (its uploader, founders and admins), with a change note; every earlier version " +
    "is kept, unchanged. The paper keeps its id; the old version stays current until the new one is whole",
  tag,
  access: documentById,
  streamedBody: [
    {
      contentType: "multipart/form-data",
      description: "The field `note` (1–500 characters: what changed), then the file part, checked as an upload is",
    },
  ],
  responses: { 201: documentObjectSchema },
  errors: {
    400: "The change note is missing or too long, or the file fails the upload checks",
    403: "The caller's role may not replace this paper",
    409: "The document has no file (a note or a meeting)",
    413: "The file is larger than 20 MB",
    415: "The file's type is not accepted (or does not match its content)",
  },
});

export const listVersions = endpoint({
  method: "GET",
  path: "/api/documents/:id/versions",
  summary: "Every version of a paper, newest first, with its uploader, time, change note, size and pages",
  tag,
  access: documentById,
  responses: { 200: z.array(documentVersionSchema) },
});

export const downloadVersion = endpoint({
  method: "GET",
  path: "/api/documents/:id/versions/:version/download",
  summary: "One version's file, as stored; answers a byte Range like the latest version's download",
  tag,
  access: documentById,
  query: downloadQuerySchema,
  responses: {
    200: { contentType: "application/octet-stream", description: "The version's bytes, as an attachment (or inline)" },
    206: { contentType: "application/octet-stream", description: "The one byte range asked for, with Content-Range" },
    304: null,
  },
  errors: { 404: "No such document or version", 416: "The Range asked for lies outside the file" },
});

export const compareVersions = endpoint({
  method: "GET",
  path: "/api/documents/:id/compare",
  summary:
    "What changed between two versions of one paper: for PDFs page by page (pages added, removed and changed, with the " +
    "changed lines), for text and Word files line by line, for anything else whether it changed. Computed once per pair",
  tag,
  access: documentById,
  query: compareQuerySchema,
  responses: { 200: comparisonSchema },
  errors: {
    400: "from and to are the same version",
    404: "No such document, or it has no such version",
    503: "The text could not be read out of a version (with Retry-After)",
  },
});
