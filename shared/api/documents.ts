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
  summary: "A document's file, as stored (revalidated by its ETag); `inline=1` to show it in the browser",
  tag,
  access: documentById,
  query: downloadQuerySchema,
  responses: {
    200: {
      contentType: "application/octet-stream",
      description: "The file's bytes, served as its stored type, as an attachment (or inline) under its name",
    },
    304: null,
  },
  errors: { 404: "No such document, another company's, or one without a file (a note or a meeting)" },
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
