import * as api from "../../../../shared/api/meeting-record";
import type { RouterDeps } from "../../app-deps";
import { rangeOf, sendBytes } from "../../http/byte-range";
import { contentDisposition } from "../../http/content-disposition";
import { route, type BoundRoute } from "../../http/endpoints";
import { meetingCompanyGuard } from "../meetings/meetings.guard";
import { markPackBuilt, packEtag, readPackData } from "./board-pack.data";
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
          "Accept-Ranges": "bytes",
        });
        if (req.fresh) {
          res.status(304).end();
          return;
        }
        const pdfHeaders = () =>
          res.set({
            "Content-Type": "application/pdf",
            "Content-Disposition": contentDisposition("attachment", `${data.meeting.title} - board pack.pdf`, "application/pdf"),
            "X-Content-Type-Options": "nosniff",
          });

        // A reader asks for the pack in ranges: each is read from the stored pack, never the whole of it.
        const stored = await storedPack(deps, params.id, etag);
        if (stored) {
          pdfHeaders();
          const range = rangeOf(req, res, stored.byteSize, etag);
          // A stored pack that cannot be opened (object storage unreachable) is built again instead.
          const body = await stored.open(range).catch(() => null);
          // A client that leaves midway ends the read; nothing more to answer.
          if (body) return sendBytes(res, body, stored.byteSize, range);
        }

        // The first build (none is stored): papers replaced from now on are listed on the cover of later packs.
        await markPackBuilt(deps.db, params.id, deps.clock.now());
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
        pdfHeaders();
        const bytes = Buffer.from(pack.buffer, pack.byteOffset, pack.byteLength);
        await sendBytes(res, bytes, bytes.length, rangeOf(req, res, bytes.length, etag));
      },
      meetingOf,
    ),
  ];
}
