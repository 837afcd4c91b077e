import request from "supertest";
import type { MeetingUpdateInput } from "../../../shared/agenda";
import { scheduleMeeting, type ScheduledMeetingFields } from "./factories";
import { useTestContext } from "./test-context";

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

/** When a lifecycle test file's clock starts; it is set back there after each test. */
export const lifecycleTestStart = "2026-06-01T09:00:00.000Z";

/**
 * A meeting lifecycle test file: its context with the clock set back to `lifecycleTestStart` after each test, the
 * fixtures, a board with a named founder, and a moment `days` after the start.
 */
export function useLifecycleContext() {
  const ctx = useTestContext();
  afterEach(() => ctx.clock.set(lifecycleTestStart));
  const board = (name = "Lifecycle Ltd") => ctx.board(name, { firstName: "Fay", lastName: "Founder" });
  const inDays = (days: number) => new Date(new Date(lifecycleTestStart).getTime() + days * dayMs);
  return { ctx, board, inDays, ...lifecycleFixtures(ctx) };
}
