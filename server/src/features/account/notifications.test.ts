import { eq } from "drizzle-orm";
import request from "supertest";
import { z } from "zod";
import type { AppNotification } from "../../../../shared/notifications";
import { notifications } from "../../db/schema";
import { createTestContext, type TestContext } from "../../testing/test-context";

/** The wire shape, strictly: an unexpected field (a recipient id, a raw column) fails the parse. */
const notificationSchema = z.strictObject({
  id: z.number().int(),
  kind: z.string(),
  companyId: z.number().int().nullable(),
  title: z.string(),
  body: z.string().nullable(),
  link: z.string().nullable(),
  readAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
}) satisfies z.ZodType<AppNotification>;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const api = () => request(ctx.app);
const minute = 60_000;

async function notificationFor(userId: number, title: string, createdAt: Date, fields: Partial<typeof notifications.$inferInsert> = {}) {
  const [row] = await ctx.db.insert(notifications).values({ userId, companyId: null, kind: "test", title, createdAt, ...fields }).returning();
  return row!;
}

describe("GET /api/notifications", () => {
  it("answers the shared wire shape: the caller's unread notifications, newest first, with ISO dates and no recipient id", async () => {
    const { founder, company } = await ctx.board();
    const other = await ctx.signUp();
    const now = ctx.clock.now().getTime();
    await notificationFor(founder.id, "Older", new Date(now - 2 * minute), { companyId: company.id, body: "Details", link: "/meetings/1" });
    await notificationFor(founder.id, "Newer", new Date(now - minute));
    await notificationFor(founder.id, "Already read", new Date(now), { readAt: new Date(now) });
    await notificationFor(other.id, "Someone else's", new Date(now));

    const response = await api().get("/api/notifications").set("Authorization", founder.bearer);
    expect(response.status).toBe(200);
    const list = notificationSchema.array().parse(response.body);
    expect(list.map((notification) => notification.title)).toEqual(["Newer", "Older"]);
    expect(list[1]).toEqual({
      id: expect.any(Number),
      kind: "test",
      companyId: company.id,
      title: "Older",
      body: "Details",
      link: "/meetings/1",
      readAt: null,
      createdAt: new Date(now - 2 * minute).toISOString(),
    });
  });
});

describe("POST /api/notifications/:id/read", () => {
  it("marks the caller's own notification read (204), after which it is no longer listed", async () => {
    const user = await ctx.signUp();
    const note = await notificationFor(user.id, "Read me", ctx.clock.now());
    const response = await api().post(`/api/notifications/${note.id}/read`).set("Authorization", user.bearer);
    expect(response.status).toBe(204);
    const [row] = await ctx.db.select().from(notifications).where(eq(notifications.id, note.id));
    expect(row!.readAt?.toISOString()).toBe(ctx.clock.now().toISOString());
    expect((await api().get("/api/notifications").set("Authorization", user.bearer)).body).toEqual([]);
  });

  it("answers another user's notification exactly as one that does not exist, and leaves it unread", async () => {
    const owner = await ctx.signUp();
    const intruder = await ctx.signUp();
    const note = await notificationFor(owner.id, "Private", ctx.clock.now());
    const foreign = await api().post(`/api/notifications/${note.id}/read`).set("Authorization", intruder.bearer);
    const missing = await api().post("/api/notifications/999999/read").set("Authorization", intruder.bearer);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    const [row] = await ctx.db.select().from(notifications).where(eq(notifications.id, note.id));
    expect(row!.readAt).toBeNull();
  });
});
