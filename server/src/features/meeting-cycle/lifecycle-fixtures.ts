import request from "supertest";
import type { MeetingUpdateInput } from "../../../../shared/agenda";

interface Caller {
  /** Authorization header value. */
  bearer: string;
}

/** What the fixtures use of a file's test context, by shape: features may not import server/src/testing. */
interface LifecycleContext {
  app: Parameters<typeof request>[0];
}

export const hourMs = 60 * 60 * 1000;
export const dayMs = 24 * hourMs;

/** The requests the lifecycle tests make, bound to a file's test context. */
export function lifecycleFixtures(ctx: LifecycleContext) {
  const api = () => request(ctx.app);

  /** Schedules a pending meeting in the caller's active company, telling nobody; answers its id. */
  async function schedule(user: Caller, start: Date, fields: { title?: string; location?: string; participants?: number[] } = {}) {
    const content = {
      type: "meeting",
      title: fields.title ?? "Q3 Board Meeting",
      date: start.toISOString(),
      endDate: new Date(start.getTime() + 2 * hourMs).toISOString(),
      location: fields.location ?? "Virtual (Zoom)",
      status: "pending",
      participants: (fields.participants ?? []).map(String),
    };
    const response = await api()
      .post("/api/documents")
      .set("Authorization", user.bearer)
      .send({ category: "Meeting", content: JSON.stringify(content) });
    if (response.status !== 201) throw new Error(`scheduling failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.id as number;
  }

  const update = (user: Caller, id: number, body: MeetingUpdateInput | Record<string, unknown>) =>
    api().patch(`/api/meetings/${id}`).set("Authorization", user.bearer).send(body);

  const calendar = (user: Caller, id: number) => api().get(`/api/meetings/${id}/calendar.ics`).set("Authorization", user.bearer);

  return { api, schedule, update, calendar };
}
