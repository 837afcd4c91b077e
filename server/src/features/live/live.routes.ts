import * as api from "../../../../shared/api/events";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { HttpError } from "../../http/errors";
import type { EventHub } from "./event-hub";

/** An event id: what this server sent as `id:` (a decimal number of at most 16 digits). */
const eventIdPattern = /^\d{1,16}$/;

/** The live event stream (shared/api/events.ts). */
export function liveRoutes(_deps: RouterDeps, hub: EventHub): BoundRoute[] {
  return [
    route(api.openEventStream, async ({ auth, req, res }) => {
      const lastEventId = req.get("last-event-id");
      if (lastEventId !== undefined && !eventIdPattern.test(lastEventId.trim())) {
        throw new HttpError(400, "Last-Event-ID must be an event id this server sent");
      }
      await hub.open(
        { sessionId: auth.sessionId, userId: auth.user.id },
        res,
        lastEventId === undefined ? null : Number(lastEventId.trim()),
      );
    }),
  ];
}
