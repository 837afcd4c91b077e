import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import * as api from "../../../../shared/api/audit";
import type { RouterDeps } from "../../app-deps";
import { companyExportFilename, contentDisposition } from "../../http/content-disposition";
import { route, type BoundRoute } from "../../http/endpoints";
import { chainHead, createChainVerifications, exportLines, listAuditEvents } from "./audit.service";

/** The audit trail of a company (shared/api/audit.ts): its founders and admins read, export and verify it. */
export function auditRoutes(deps: RouterDeps): BoundRoute[] {
  const verifyChain = createChainVerifications();
  return [
    route(api.listAuditEvents, ({ tenant, query }) => listAuditEvents(deps, tenant.company.id, query)),
    route(api.exportAuditEvents, async ({ tenant, req, res }) => {
      // The head is read first: the export ends there whatever is appended while it streams, and a database
      // that cannot be read is still an ordinary error answer.
      const head = await chainHead(deps.db, tenant.company.id);
      const filename = companyExportFilename(tenant.company.name, "audit", deps.clock.now(), "jsonl");
      res.set({
        "Content-Type": "application/x-ndjson; charset=utf-8",
        "Content-Disposition": contentDisposition("attachment", filename, "application/x-ndjson"),
        "X-Content-Type-Options": "nosniff",
      });
      res.status(200);
      const cutShort = (error: unknown) =>
        req.log.warn({ err: error instanceof Error ? { message: error.message } : undefined }, "audit export cut short");
      // Line by line, as fast as the client reads (pipeline waits on the response's backpressure). A read that fails
      // midway ends the file with its "incomplete" trailer; a client that goes away just ends the pipeline.
      await pipeline(Readable.from(exportLines(deps.db, tenant.company.id, head, cutShort)), res).catch((error: unknown) => {
        if (!res.headersSent) throw error;
        cutShort(error);
      });
    }),
    route(api.verifyAuditChain, ({ tenant }) => verifyChain(deps, tenant.company.id)),
  ];
}
