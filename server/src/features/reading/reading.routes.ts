import type { Request } from "express";
import * as api from "../../../../shared/api/reading";
import type { RouterDeps } from "../../app-deps";
import { contentDisposition } from "../../http/content-disposition";
import { route, type BoundRoute } from "../../http/endpoints";
import { idParam } from "../../http/validate";
import { documentCompanyOf } from "../documents/documents-read.service";
import { scheduledMeetingGuard } from "../meetings/meetings.guard";
import { exportNotes } from "./notes-export";
import { createNote, deleteNote, listNotes, noteOwnerOf, updateNote } from "./notes.service";
import { boardReading, meetingReading, recordPackOpened, recordReads } from "./reading-progress.service";

/** What a director reads and notes (shared/api/reading.ts), bound to the handlers. */
export function readingRoutes(deps: RouterDeps): BoundRoute[] {
  // A draft meeting has no readers yet (and its title is its creator's): 404, as for its agenda and board pack.
  const meetingOf = scheduledMeetingGuard(deps);
  const documentOf = { companyOf: (req: Request) => documentCompanyOf(deps, idParam(req.params.id)) };
  const ownNote = { ownerOf: (req: Request) => noteOwnerOf(deps, idParam(req.params.id)), notFoundMessage: "Note not found" };

  return [
    route(api.recordReads, ({ tenant, params, body }) => recordReads(deps, tenant.user.id, params.id, body), documentOf),
    route(api.recordPackOpened, ({ tenant, params }) => recordPackOpened(deps, tenant.user.id, params.id), meetingOf),
    route(api.meetingReading, ({ tenant, params }) => meetingReading(deps, tenant.user.id, params.id), meetingOf),
    route(api.boardReading, ({ tenant, params }) => boardReading(deps, tenant, params.id), meetingOf),
    route(api.listNotes, ({ tenant, params }) => listNotes(deps, tenant.user.id, params.id), documentOf),
    route(api.createNote, ({ tenant, params, body }) => createNote(deps, tenant, params.id, body), documentOf),
    route(api.updateNote, ({ auth, params, body }) => updateNote(deps, auth.user.id, params.id, body.text), ownNote),
    route(api.deleteNote, ({ auth, params }) => deleteNote(deps, auth.user.id, params.id), ownNote),
    route(
      api.exportNotes,
      async ({ tenant, params, query, res }) => {
        const file = await exportNotes(deps, tenant.user.id, params.id, query.format);
        res.set({
          "Content-Type": file.contentType,
          "Content-Disposition": contentDisposition("attachment", file.filename, file.contentType.split(";")[0]!),
          "X-Content-Type-Options": "nosniff",
          "Content-Length": String(file.body.byteLength),
        });
        res.status(200).end(file.body);
      },
      meetingOf,
    ),
  ];
}
