import { Router, type Request, type RequestHandler } from "express";
import { createDocumentSchema } from "../../../../shared/documents";
import { meetingCategory } from "../../../../shared/meetings";
import type { RouterDeps } from "../../app-deps";
import { HttpError } from "../../http/errors";
import { tenantOf } from "../../http/guards";
import { assertImpliedFields } from "../../http/implied-fields";
import { idParam, parseOr400 } from "../../http/validate";
import { scheduleMeeting } from "../meetings/meetings.service";
import { documentCompanyOf, getDocument, listDocuments } from "./documents.service";

const isMeetingBody = (body: unknown) =>
  typeof body === "object" && body !== null && typeof (body as { category?: unknown }).category === "string" && (body as { category: string }).category.trim() === meetingCategory;

/** Mounted at /api/documents. */
export function documentsRouter(deps: RouterDeps): Router {
  const router = Router();
  const { requireCompanyMember } = deps.guards;
  const activeCompany = { from: "active" as const };

  router.get("/", ...requireCompanyMember({ company: activeCompany }), async (req, res) => {
    res.json(await listDocuments(deps.db, tenantOf(req).company.id));
  });

  router.get(
    "/:id",
    ...requireCompanyMember({ company: { from: "thing", companyOf: (req: Request) => documentCompanyOf(deps.db, idParam(req.params.id)) } }),
    async (req, res) => {
      res.json(await getDocument(deps.db, idParam(req.params.id)));
    },
  );

  // POST / has two branches chosen by category: a meeting (JSON content) here, a file upload below.
  const meetingsOnly: RequestHandler = (req, _res, next) => (isMeetingBody(req.body) ? next() : next("route"));
  router.post(
    "/",
    meetingsOnly,
    ...requireCompanyMember({ company: activeCompany, permission: "scheduleMeeting" }),
    async (req, res) => {
      const tenant = tenantOf(req);
      const input = parseOr400(createDocumentSchema, req.body);
      assertImpliedFields(tenant, { companyId: input.companyId, actor: { field: "uploadedBy", id: input.uploadedBy } });
      const id = await scheduleMeeting(deps, tenant, { content: input.content, sendNotifications: input.sendNotifications });
      res.status(201).json(await getDocument(deps.db, id));
    },
  );

  router.post(
    "/",
    ...requireCompanyMember({ company: activeCompany, permission: "uploadDocument" }),
    async (req) => {
      const tenant = tenantOf(req);
      const input = parseOr400(createDocumentSchema, req.body);
      assertImpliedFields(tenant, { companyId: input.companyId, actor: { field: "uploadedBy", id: input.uploadedBy } });
      // The file branch (data URL decoding, type and size checks, storage) arrives with the documents issue.
      throw new HttpError(400, "File uploads are not available yet");
    },
  );

  return router;
}
