import { pipeline } from "node:stream/promises";
import * as api from "../../../../shared/api/meeting-record";
import type { RouterDeps } from "../../app-deps";
import { contentDisposition } from "../../http/content-disposition";
import { route, type BoundRoute } from "../../http/endpoints";
import { meetingCompanyGuard } from "../meetings/meetings.guard";
import { packEtag, readPackData } from "./board-pack.data";
import { boardPackFor } from "./board-pack.jobs";
import { storedPack } from "./board-pack.store";

/** The board pack, bound to its declaration. */
export function boardPackRoutes(deps: RouterDeps): BoundRoute[] {
  const meetingOf = meetingCompanyGuard(deps);

  return [
    route(
      api.boardPack,
      async ({ params, req, res, auth, tenant }) => {
        // The client leaving before its pack is ready drops the build (unless others wait for the same pack); watched
        // from the start, so a client gone while the pack's data is read starts no build.
        const gone = new AbortController();
        res.on("close", () => {
          if (!res.writableFinished) gone.abort();
        });
        const data = await readPackData(deps.db, params.id);
        const etag = packEtag(data);
        res.set({
          // Revalidated on every open: a changed agenda or paper changes the tag, and the next download is the new pack.
          "Cache-Control": "private, no-cache",
          ETag: etag,
        });
        if (req.fresh) {
          res.status(304).end();
          return;
        }
        const pdfHeaders = (length: number) =>
          res.set({
            "Content-Type": "application/pdf",
            "Content-Disposition": contentDisposition("attachment", `${data.meeting.title} - board pack.pdf`, "application/pdf"),
            "X-Content-Type-Options": "nosniff",
            "Content-Length": String(length),
          });

        const stored = await storedPack(deps, params.id, etag);
        // A stored pack that cannot be opened (object storage unreachable) is built again instead.
        const body = stored && (await stored.open().catch(() => null));
        if (stored && body) {
          pdfHeaders(stored.byteSize);
          // A client that leaves midway ends the read; nothing more to answer.
          await pipeline(body, res).catch(() => res.destroy());
          return;
        }

        let pack: Uint8Array;
        try {
          pack = await boardPackFor(deps, { data, etag, userId: auth.user.id, companyId: tenant.company.id, signal: gone.signal });
        } catch (error) {
          res.removeHeader("ETag");
          if (!gone.signal.aborted) throw error;
          res.end();
          return;
        }
        if (gone.signal.aborted) return void res.end();
        pdfHeaders(pack.byteLength);
        res.end(Buffer.from(pack.buffer, pack.byteOffset, pack.byteLength));
      },
      meetingOf,
    ),
  ];
}
