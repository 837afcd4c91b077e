import { Router, type Request, type Response } from "express";
import {
  acceptedExtensions,
  acceptedFileTypes,
  createDocumentSchema,
  maxFileBytes,
  isPreviewable,
  uploadFieldsSchema,
  type AcceptedExtension,
} from "../../../../shared/documents";
import type { RouterDeps } from "../../app-deps";
import { HttpError } from "../../http/errors";
import { assertPermission, tenantOf } from "../../http/guards";
import { assertImpliedFields } from "../../http/implied-fields";
import { idParam, parseOr400 } from "../../http/validate";
import {
  abandonReceivedFile,
  claimedNameExtension,
  commitReceivedFile,
  createDocument,
  declaredExtension,
  deleteDocument,
  documentCompanyOf,
  documentDownload,
  getDocument,
  jsonFileDocument,
  listDocuments,
  listLibrary,
  permissionToCreate,
  receiveFile,
  recentDocuments,
  refuseMeetingFile,
  uploadDocument,
  type ReceivedFile,
} from "./documents.service";
import { tooLarge } from "./file-checks";
import { readJsonUpload, type JsonFile } from "./json-upload";
import { declaresTooLarge, readMultipart } from "./multipart";

/** A document carries a file of at most 20 MiB as a base64 data URL (4/3 larger) plus its metadata. */
const documentBodyLimit = 28 * 1024 * 1024;
/** What a JSON body may hold beyond the file's base64 text. */
const jsonAllowance = documentBodyLimit - maxFileBytes;

/**
 * Mounted at /api/documents, ahead of the app's general body parser: this router parses its own bodies, and
 * only after the guard, so nobody but a member of a company gets 28 MB read.
 */
export function documentsRouter(deps: RouterDeps): Router {
  const router = Router();
  const { requireCompanyMember } = deps.guards;
  const activeCompany = { from: "active" as const };
  const documentOf = { from: "thing" as const, companyOf: (req: Request) => documentCompanyOf(deps, idParam(req.params.id)) };

  router.get("/", ...requireCompanyMember({ company: activeCompany }), async (req, res) => {
    res.json(await listDocuments(deps, tenantOf(req).company.id));
  });

  router.get("/:id", ...requireCompanyMember({ company: documentOf }), async (req, res) => {
    res.json(await getDocument(deps, idParam(req.params.id)));
  });

  router.post("/", ...requireCompanyMember({ company: activeCompany }), async (req, res, next) => {
    if (!req.is("multipart/form-data")) return next();
    // The app's own uploads: a stream, checked and stored as it arrives; only files travel this way.
    const tenant = tenantOf(req);
    assertPermission(tenant.role, "uploadDocument");
    if (declaresTooLarge(req)) refuseUnread(req, res);
    const id = await readMultipart(req, (fields, fileName, file) => {
      const input = parseOr400(uploadFieldsSchema, fields);
      assertImpliedFields(tenant, { companyId: input.companyId, actor: { field: "uploadedBy", id: input.uploadedBy } });
      return uploadDocument(deps, tenant, input, fileName, file);
    });
    res.status(201).json(await getDocument(deps, id));
  });

  router.post("/", ...requireCompanyMember({ company: activeCompany }), async (req, res) => {
    // The JSON body (a meeting, a note, or a file as a base64 data: URL) is read as a stream too: a file's
    // bytes are decoded, checked and stored as they arrive, before the members after `content` are known.
    const tenant = tenantOf(req);
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
      } else {
        id = await createDocument(deps, tenant, input);
      }
      res.status(201).json(await getDocument(deps, id));
    } catch (error) {
      if (file) await abandonReceivedFile(deps, file.received);
      // Whatever the client still sends is discarded as it arrives.
      req.resume();
      throw error;
    }
  });

  router.get("/:id/download", ...requireCompanyMember({ company: documentOf }), async (req, res) => {
    const file = await documentDownload(deps, idParam(req.params.id));
    const inline = req.query.inline === "1" && isPreviewable(file.fileType);
    res.set({
      "Content-Type": file.fileType.startsWith("text/") ? `${file.fileType}; charset=utf-8` : file.fileType,
      "Content-Disposition": contentDisposition(inline ? "inline" : "attachment", file.name, file.fileType),
      "X-Content-Type-Options": "nosniff",
      // Whatever the file holds, it runs no script and reaches nothing: a sandboxed, unique origin.
      "Content-Security-Policy": "default-src 'none'; img-src 'self'; object-src 'self'; frame-ancestors 'self'; sandbox",
      // Revalidated each time (a deleted or replaced document must not linger); never re-encoded, so the length holds.
      "Cache-Control": "private, no-cache, no-transform",
      ETag: file.etag,
    });
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    const body = await file.open();
    res.set("Content-Length", String(file.fileSize));
    body.on("error", (error) => res.destroy(error));
    body.pipe(res);
  });

  router.delete("/:id", ...requireCompanyMember({ company: documentOf }), async (req, res) => {
    await deleteDocument(deps, tenantOf(req), idParam(req.params.id));
    res.status(204).end();
  });

  return router;
}

/** Mounted at /api: a company's library and its recent documents. */
export function libraryRouter(deps: RouterDeps): Router {
  const router = Router();
  const { requireCompanyMember } = deps.guards;
  const named = { company: { from: "param" as const, param: "companyId" } };

  router.get("/companies/:companyId/documents", ...requireCompanyMember(named), async (req, res) => {
    res.json(await listLibrary(deps, tenantOf(req).company.id));
  });

  router.get("/companies/:companyId/documents/recent", ...requireCompanyMember(named), async (req, res) => {
    res.json(await recentDocuments(deps, tenantOf(req).company.id));
  });

  return router;
}

/**
 * A 413 from the declared length alone, sent at once: what the client still sends is discarded as it
 * arrives, never gathered, and the connection is closed after.
 */
function refuseUnread(req: Request, res: Response): never {
  res.set("Connection", "close");
  req.resume();
  throw tooLarge();
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

/** RFC 6266: an ASCII fallback `filename` and the exact name as UTF-8 in `filename*`; the type's extension is added when the name lacks it. */
export function contentDisposition(kind: "inline" | "attachment", name: string, fileType: string): string {
  const extension = extensionFor(fileType);
  const full =
    extension && !name.toLowerCase().endsWith(`.${extension}`) && !(extension === "jpg" && name.toLowerCase().endsWith(".jpeg"))
      ? `${name}.${extension}`
      : name;
  const ascii = full.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(full).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

function extensionFor(fileType: string): string | null {
  return acceptedExtensions.find((extension) => acceptedFileTypes[extension] === fileType) ?? null;
}
