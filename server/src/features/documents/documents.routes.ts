import type { Request, Response } from "express";
import * as api from "../../../../shared/api/documents";
import {
  createDocumentSchema,
  maxFileBytes,
  uploadFieldsSchema,
  type AcceptedExtension,
  type DocumentObject,
} from "../../../../shared/documents";
import { meetingCategory } from "../../../../shared/meeting-model";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { HttpError } from "../../http/errors";
import { assertPermission } from "../../http/guards";
import { assertImpliedFields } from "../../http/implied-fields";
import type { TenantContext } from "../../http/request-context";
import { idParam, parseOr400 } from "../../http/validate";
import { claimedNameExtension, declaredExtension, jsonFileDocument, permissionToCreate } from "./document-fields";
import {
  abandonReceivedFile,
  commitReceivedFile,
  createDocument,
  deleteDocument,
  documentDownload,
  receiveFile,
  uploadDocument,
  type ReceivedFile,
} from "./documents.service";
import { documentCompanyOf, getDocument, listDocuments, listLibrary, recentDocuments } from "./documents-read.service";
import { refuseMeetingFile, scheduleMeeting } from "../meetings/meetings.service";
import { answerDownload } from "./download";
import { readJsonUpload, type JsonFile } from "./json-upload";
import { queueVersionText } from "./paper-text.service";
import { declaresTooLarge, readMultipart, refuseUnread } from "./multipart";

/** A document carries a file of at most 20 MiB as a base64 data URL (4/3 larger) plus its metadata. */
const documentBodyLimit = 28 * 1024 * 1024;
/** What a JSON body may hold beyond the file's base64 text. */
const jsonAllowance = documentBodyLimit - maxFileBytes;

/**
 * The /api/documents endpoints (shared/api/documents.ts) bound to their handlers. Mounted ahead of the app's
 * general body parser: a document's body is read here, as a stream, and only after the guard, so nobody but a
 * member of a company gets 28 MB read.
 */
export function documentsRoutes(deps: RouterDeps): BoundRoute[] {
  const documentOf = { companyOf: (req: Request) => documentCompanyOf(deps, idParam(req.params.id)) };

  return [
    route(api.listDocuments, ({ tenant, query }) => listDocuments(deps, callerOf(tenant), query.category)),
    route(api.getDocument, ({ tenant, params }) => getDocument(deps, params.id, tenant.user.id), documentOf),
    // One address, two forms of body: the app's multipart upload, else the JSON body; each read as a stream.
    route(api.createDocument, ({ tenant, req, res }) =>
      req.is("multipart/form-data") ? createFromUpload(deps, tenant, req, res) : createFromJson(deps, tenant, req, res),
    ),
    route(
      api.downloadDocument,
      async ({ params, query, req, res }) => {
        await answerDownload(req, res, await documentDownload(deps, params.id), query.inline);
      },
      documentOf,
    ),
    route(api.deleteDocument, ({ tenant, params }) => deleteDocument(deps, tenant, params.id), documentOf),
  ];
}

/** A company's library and its recent documents. */
export function libraryRoutes(deps: RouterDeps): BoundRoute[] {
  return [
    route(api.listLibrary, ({ tenant }) => listLibrary(deps, callerOf(tenant), deps.lists)),
    route(api.recentDocuments, ({ tenant }) => recentDocuments(deps, callerOf(tenant))),
  ];
}

/** A new file's text (for comparisons later, and for notes to find their page) is read in the background. */
function withTextQueued(deps: RouterDeps, document: DocumentObject): DocumentObject {
  if (document.hasFile) queueVersionText(deps, document.id, document.version);
  return document;
}

const callerOf = (tenant: TenantContext) => ({ companyId: tenant.company.id, userId: tenant.user.id });

/** The app's own uploads (multipart): a stream, checked and stored as it arrives; only files travel this way. */
async function createFromUpload(deps: RouterDeps, tenant: TenantContext, req: Request, res: Response): Promise<DocumentObject> {
  assertPermission(tenant.role, "uploadDocument");
  if (declaresTooLarge(req)) refuseUnread(req, res);
  const id = await readMultipart(req, (fields, fileName, file) => {
    const input = parseOr400(uploadFieldsSchema, fields);
    assertImpliedFields(tenant, { companyId: input.companyId, actor: { field: "uploadedBy", id: input.uploadedBy } });
    return uploadDocument(deps, tenant, input, fileName, file);
  });
  return withTextQueued(deps, await getDocument(deps, id, tenant.user.id));
}

/**
 * The JSON body (a meeting, a note, or a file as a base64 data: URL) is read as a stream too: a file's bytes are
 * decoded, checked and stored as they arrive, before the members after `content` are known.
 */
async function createFromJson(deps: RouterDeps, tenant: TenantContext, req: Request, res: Response): Promise<DocumentObject> {
  if (declaresTooLarge(req, jsonAllowance)) refuseUnread(req, res);
  let file: { received: ReceivedFile; mediaType: string | null } | undefined;
  try {
    const body = await readDocumentBody(req, async ({ mediaType, before, bytes }) => {
      // A data URL is only ever a file: whoever may not upload is refused before a byte is stored.
      assertPermission(tenant.role, permissionToCreate(before.category));
      refuseMeetingFile(before.category);
      file = {
        received: await receiveFile(deps, bytes, claimedExtension(before, mediaType), mediaType ?? "application/octet-stream"),
        mediaType,
      };
    });
    // Scheduling a meeting and uploading a file are different capabilities; either refusal comes before validation.
    assertPermission(tenant.role, permissionToCreate((body as { category?: unknown } | undefined)?.category));
    const input = parseOr400(createDocumentSchema, body);
    assertImpliedFields(tenant, { companyId: input.companyId, actor: { field: "uploadedBy", id: input.uploadedBy } });
    let id: number;
    if (file) {
      const { meta, extension } = jsonFileDocument(input, file.mediaType);
      const { received } = file;
      // From here the commit owns the bytes (and removes them if it fails).
      file = undefined;
      id = await commitReceivedFile(deps, tenant, meta, extension, received);
    } else if (input.category === meetingCategory) {
      // A meeting is a document on the wire, but the meetings feature writes it (its content is the meeting's JSON).
      id = await scheduleMeeting(deps, tenant, { content: input.content, sendNotifications: input.sendNotifications });
    } else {
      id = await createDocument(deps, tenant, input);
    }
    return withTextQueued(deps, await getDocument(deps, id, tenant.user.id));
  } catch (error) {
    if (file) await abandonReceivedFile(deps, file.received);
    // Whatever the client still sends is discarded as it arrives.
    req.resume();
    throw error;
  }
}

/** The JSON body, streamed; any other type of body is not read (and fails validation as no body). */
async function readDocumentBody(req: Request, onFile: (file: JsonFile) => Promise<void>): Promise<unknown> {
  if (!req.is("application/json")) {
    req.resume();
    return undefined;
  }
  const encoding = (req.get("content-encoding") ?? "identity").toLowerCase();
  if (encoding !== "identity") throw new HttpError(415, "Unsupported request encoding");
  return readJsonUpload(req, { maxBytes: documentBodyLimit, onFile });
}

/**
 * The type a file in a JSON body claims, when the members before its `content` already say (a name, or a
 * declared type); null when only the members after it can (then it is checked once the body is read).
 */
function claimedExtension(before: Record<string, unknown>, mediaType: string | null): AcceptedExtension | null {
  const { name, fileType } = before;
  if (typeof name !== "string" || name.trim() === "") return null;
  const declared = mediaType ?? (typeof fileType === "string" ? fileType : null);
  if (claimedNameExtension(name) === null && declared === null) return null;
  return declaredExtension(name, declared);
}
