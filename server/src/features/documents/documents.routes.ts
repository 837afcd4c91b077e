import express, { Router, type Request } from "express";
import { createDocumentSchema } from "../../../../shared/documents";
import type { RouterDeps } from "../../app-deps";
import { assertPermission, tenantOf } from "../../http/guards";
import { assertImpliedFields } from "../../http/implied-fields";
import { idParam, parseOr400 } from "../../http/validate";
import { createDocument, deleteDocument, documentCompanyOf, getDocument, listDocuments, permissionToCreate } from "./documents.service";

/** A document carries a file of at most 20 MiB as a base64 data URL (4/3 larger) plus its metadata. */
const documentBodyLimit = "28mb";

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

  router.post("/", ...requireCompanyMember({ company: activeCompany }), express.json({ limit: documentBodyLimit }), async (req, res) => {
    const tenant = tenantOf(req);
    // Scheduling a meeting and uploading a file are different capabilities; either refusal comes before validation.
    assertPermission(tenant.role, permissionToCreate((req.body as { category?: unknown } | undefined)?.category));
    const input = parseOr400(createDocumentSchema, req.body);
    assertImpliedFields(tenant, { companyId: input.companyId, actor: { field: "uploadedBy", id: input.uploadedBy } });
    const id = await createDocument(deps, tenant, input);
    res.status(201).json(await getDocument(deps, id));
  });

  router.delete("/:id", ...requireCompanyMember({ company: documentOf }), async (req, res) => {
    await deleteDocument(deps, tenantOf(req), idParam(req.params.id));
    res.status(204).end();
  });

  return router;
}
