import * as api from "../../../../shared/api/meetings";
import type { RouterDeps } from "../../app-deps";
import { contentDisposition } from "../../http/content-disposition";
import { route, type BoundRoute } from "../../http/endpoints";
import { meetingCompanyGuard } from "../meetings/meetings.service";
import { buildBoardPack } from "./board-pack.build";
import { packEtag, readPackData } from "./board-pack.data";

/** The board pack, bound to its declaration. */
export function boardPackRoutes(deps: RouterDeps): BoundRoute[] {
  const meetingOf = meetingCompanyGuard(deps);

  return [
    route(
      api.boardPack,
      async ({ params, req, res }) => {
        const data = await readPackData(deps.db, params.id);
        res.set({
          "Content-Type": "application/pdf",
          "Content-Disposition": contentDisposition("attachment", `${data.meeting.title} - board pack.pdf`, "application/pdf"),
          "X-Content-Type-Options": "nosniff",
          // Revalidated on every open: a changed agenda or paper changes the tag, and the next download is the new pack.
          "Cache-Control": "private, no-cache",
          ETag: packEtag(data),
        });
        if (req.fresh) {
          res.status(304).end();
          return;
        }
        const pack = await buildBoardPack(deps, data);
        res.set("Content-Length", String(pack.byteLength));
        res.end(Buffer.from(pack.buffer, pack.byteOffset, pack.byteLength));
      },
      meetingOf,
    ),
  ];
}
