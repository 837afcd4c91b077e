import express, { Router, type Request, type RequestHandler, type Response } from "express";
import { acceptedExtensions, acceptedFileTypes, createDocumentSchema, maxFileBytes, isPreviewable, uploadFieldsSchema } from "../../../../shared/documents";
import type { RouterDeps } from "../../app-deps";
import { assertPermission, tenantOf } from "../../http/guards";
import { assertImpliedFields } from "../../http/implied-fields";
import { idParam, parseOr400 } from "../../http/validate";
import {
  createDocument,
  deleteDocument,
  documentCompanyOf,
  documentDownload,
  getDocument,
  listDocuments,
  listLibrary,
  permissionToCreate,
  recentDocuments,
  uploadDocument,
} from "./documents.service";
import { tooLarge } from "./file-checks";
import { declaresTooLarge, readMultipart } from "./multipart";

/** A document carries a file of at most 20 MiB as a base64 data URL (4/3 larger) plus its metadata. */
const documentBodyLimit = "28mb";
/** What a JSON body may hold beyond the file's base64 text. */
const jsonAllowance = 28 * 1024 * 1024 - maxFileBytes;

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

  router.post("/", ...requireCompanyMember({ company: activeCompany }), (req, res, next) => {
    if (declaresTooLarge(req, jsonAllowance)) refuseUnread(req, res);
    next();
  }, jsonBodySlots(2), express.json({ limit: documentBodyLimit }), async (req, res) => {
    const tenant = tenantOf(req);
    // Scheduling a meeting and uploading a file are different capabilities; either refusal comes before validation.
    assertPermission(tenant.role, permissionToCreate((req.body as { category?: unknown } | undefined)?.category));
    const input = parseOr400(createDocumentSchema, req.body);
    assertImpliedFields(tenant, { companyId: input.companyId, actor: { field: "uploadedBy", id: input.uploadedBy } });
    const id = await createDocument(deps, tenant, input);
    res.status(201).json(await getDocument(deps, id));
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

/** Small JSON bodies (a meeting) pass at once; big ones (a file as a data URL, several copies in memory while parsed) at most `slots` at a time. */
function jsonBodySlots(slots: number): RequestHandler {
  let busy = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    busy -= 1;
    waiting.shift()?.();
  };
  return (req, res, next) => {
    const length = Number(req.get("content-length"));
    if (Number.isFinite(length) && length < 1024 * 1024) return next();
    const start = () => {
      busy += 1;
      let released = false;
      const once = () => {
        if (released) return;
        released = true;
        release();
      };
      res.on("finish", once);
      res.on("close", once);
      next();
    };
    if (busy < slots) start();
    else waiting.push(start);
  };
}

/** RFC 6266: an ASCII fallback `filename` and the exact name as UTF-8 in `filename*`; the type's extension is added when the name lacks it. */
export function contentDisposition(kind: "inline" | "attachment", name: string, fileType: string): string {
  const extension = extensionFor(fileType);
  const full = extension && !name.toLowerCase().endsWith(`.${extension}`) && !(extension === "jpg" && name.toLowerCase().endsWith(".jpeg")) ? `${name}.${extension}` : name;
  const ascii = full.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(full).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

function extensionFor(fileType: string): string | null {
  return acceptedExtensions.find((extension) => acceptedFileTypes[extension] === fileType) ?? null;
}
