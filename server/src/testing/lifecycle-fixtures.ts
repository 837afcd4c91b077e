import request from "supertest";
import type { MeetingUpdateInput } from "../../../shared/agenda";
import { scheduleMeeting, type ScheduledMeetingFields } from "./factories";

interface Caller {
  /** Authorization header value. */
  bearer: string;
}

/** What the fixtures use of a file's test context. */
interface LifecycleContext {
  app: Parameters<typeof request>[0];
}

export const hourMs = 60 * 60 * 1000;
export const dayMs = 24 * hourMs;

/** The requests the meeting lifecycle tests make, bound to a file's test context. */
export function lifecycleFixtures(ctx: LifecycleContext) {
  const api = () => request(ctx.app);

  /** Schedules a pending meeting in the caller's active company, telling nobody; answers its id. */
  const schedule = (user: Caller, start: Date, fields: ScheduledMeetingFields = {}) => scheduleMeeting(ctx.app, user, start, fields);

  const update = (user: Caller, id: number, body: MeetingUpdateInput | Record<string, unknown>) =>
    api().patch(`/api/meetings/${id}`).set("Authorization", user.bearer).send(body);

  const calendar = (user: Caller, id: number) => api().get(`/api/meetings/${id}/calendar.ics`).set("Authorization", user.bearer);

  return { api, schedule, update, calendar };
}
