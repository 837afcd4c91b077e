import * as api from "../../../../shared/api/archive";
import type { RouterDeps } from "../../app-deps";
import { companyExportFilename, contentDisposition } from "../../http/content-disposition";
import { route, type BoundRoute } from "../../http/endpoints";
import { HttpError } from "../../http/errors";
import { prepareArchive } from "./archive.service";
import { writeArchive } from "./archive-writer";

/** Archives one instance streams at once, of different companies: each reads every file its company holds. */
export const maxArchivesAtOnce = 4;

/**
 * A client that reads nothing for this long is let go: its archive would otherwise hold one of the instance's few
 * slots for as long as it keeps the connection open. Tests shorten it.
 */
export const archiveLimits = { stalledMs: 60_000 };

export const archiveRunningMessage = "An archive of this company is being made already. Try again when it is done.";
export const archivesBusyMessage = "The server is making as many archives as it may at once. Try again in a minute.";

/**
 * Who is being served an archive on this instance: one per company at a time (a second is refused, not queued: it
 * would read every file again), and a few in all.
 */
export function archiveSlots(limit: number) {
  const running = new Set<number>();
  return {
    take(companyId: number): () => void {
      if (running.has(companyId)) throw new HttpError(429, archiveRunningMessage, { "Retry-After": "60" });
      if (running.size >= limit) throw new HttpError(429, archivesBusyMessage, { "Retry-After": "60" });
      running.add(companyId);
      let released = false;
      return () => {
        if (!released) running.delete(companyId);
        released = true;
      };
    },
  };
}

/** The board's archive (shared/api/archive.ts): its founders and admins download the whole record as one zip. */
export function archiveRoutes(deps: RouterDeps): BoundRoute[] {
  const slots = archiveSlots(maxArchivesAtOnce);
  return [
    route(api.companyArchive, async ({ tenant, req, res }) => {
      const release = slots.take(tenant.company.id);
      // A client gone midway stops the work: the file being read is closed and nothing more is read.
      const gone = new AbortController();
      res.once("close", () => {
        if (!res.writableFinished) gone.abort(new Error("the client went away"));
      });
      // No byte written or read on the connection for so long: the client has stopped reading.
      res.setTimeout(archiveLimits.stalledMs, () => {
        req.log.info("archive stopped: the client stopped reading");
        res.destroy();
      });
      try {
        const archive = await prepareArchive(deps, tenant, (error) =>
          req.log.warn({ err: error instanceof Error ? { message: error.message } : undefined }, "archive's audit export cut short"),
        );
        // Gone while the record was listed: nothing to answer (ended here, so no answer is sent after the handler).
        if (gone.signal.aborted) return void res.end();
        const filename = companyExportFilename(tenant.company.name, "archive", deps.clock.now(), "zip");
        res.set({
          "Content-Type": "application/zip",
          "Content-Disposition": contentDisposition("attachment", filename, "application/zip"),
          "X-Content-Type-Options": "nosniff",
        });
        res.status(200);
        try {
          const written = await writeArchive(archive.entries, res, archive.manifestOf, gone.signal);
          req.log.info({ files: written.files.length }, "archive written");
        } catch (error) {
          // The answer has begun: it ends unfinished (a zip with no directory), which every reader refuses.
          if (gone.signal.aborted) req.log.info("archive stopped: the client went away");
          else req.log.warn({ err: error instanceof Error ? { message: error.message } : undefined }, "archive cut short");
          res.destroy();
        }
      } finally {
        release();
      }
    }),
  ];
}
