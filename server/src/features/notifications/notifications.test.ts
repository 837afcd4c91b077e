import { eq } from "drizzle-orm";
import request from "supertest";
import { z } from "zod";
import type { AppNotification } from "../../../../shared/notifications";
import { notificationKinds } from "../../../../shared/preferences";
import { notifications } from "../../db/schema";
import { meetingContent } from "../../testing/factories";
import { notificationFixtures } from "../../testing/notification-fixtures";
import { useTestContext } from "../../testing/test-context";

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

const ctx = useTestContext();

const api = () => request(ctx.app);
const minute = 60_000;

async function notificationFor(userId: number, title: string, createdAt: Date, fields: Partial<typeof notifications.$inferInsert> = {}) {
  const [row] = await ctx.db
    .insert(notifications)
    .values({ userId, companyId: null, kind: "test", title, createdAt, ...fields })
    .returning();
  return row!;
}

describe("GET /api/notifications", () => {
  it("answers the shared wire shape: the caller's unread and recently read notifications, newest first, with ISO dates and no recipient id", async () => {
    const { founder, company } = await ctx.board();
    const other = await ctx.signUp();
    const now = ctx.clock.now().getTime();
    await notificationFor(founder.id, "Older", new Date(now - 2 * minute), { companyId: company.id, body: "Details", link: "/meetings/1" });
    await notificationFor(founder.id, "Newer", new Date(now - minute));
    await notificationFor(founder.id, "Read just now", new Date(now - 3 * minute), { readAt: new Date(now) });
    await notificationFor(founder.id, "Read 8 days ago", new Date(now - 9 * 24 * 60 * minute), {
      readAt: new Date(now - 8 * 24 * 60 * minute),
    });
    await notificationFor(other.id, "Someone else's", new Date(now));

    const response = await api().get("/api/notifications").set("Authorization", founder.bearer);
    expect(response.status).toBe(200);
    const list = notificationSchema.array().parse(response.body);
    expect(list.map((notification) => notification.title)).toEqual(["Newer", "Older", "Read just now"]);
    expect(list[2]!.readAt).toBe(new Date(now).toISOString());
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
    const listed = (await api().get("/api/notifications").set("Authorization", user.bearer)).body as AppNotification[];
    expect(listed.map((n) => [n.title, n.readAt])).toEqual([["Read me", ctx.clock.now().toISOString()]]);
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

describe("fixed cost whatever the number", () => {
  it("GET /api/notifications costs the same number of queries for 1 notification as for 40", async () => {
    const few = await ctx.signUp();
    const many = await ctx.signUp();
    await notificationFor(few.id, "Only one", ctx.clock.now());
    await ctx.db
      .insert(notifications)
      .values(Array.from({ length: 40 }, (_, index) => ({ userId: many.id, companyId: null, kind: "test", title: `N${index}` })));
    const list = (user: typeof few) =>
      ctx.countQueries(() => api().get("/api/notifications").set("Authorization", user.bearer).expect(200));
    expect(await list(many)).toBe(await list(few));
  });

  it("notify() sends the same number of statements for 1 recipient as for 6", async () => {
    const { founder, member } = await ctx.board("Fixed Cost Co");
    const people = [];
    for (let index = 0; index < 6; index += 1) people.push(await member());
    const schedule = (participants: number[]) =>
      ctx.countQueries(() =>
        api()
          .post("/api/documents")
          .set("Authorization", founder.bearer)
          .send({
            category: "Meeting",
            sendNotifications: true,
            content: JSON.stringify(meetingContent(new Date("2026-09-01T10:00:00.000Z"), { participants: participants.map(String) })),
          })
          .expect(201),
      );
    expect(await schedule(people.map((person) => person.id))).toBe(await schedule([people[0]!.id]));
  });
});

describe("POST /api/notifications/read-all", () => {
  it("marks every unread notification of the caller read (204) and no one else's", async () => {
    const user = await ctx.signUp();
    const other = await ctx.signUp();
    const earlier = new Date(ctx.clock.now().getTime() - 60 * minute);
    await notificationFor(user.id, "One", ctx.clock.now());
    await notificationFor(user.id, "Two", ctx.clock.now());
    await notificationFor(user.id, "Read before", ctx.clock.now(), { readAt: earlier });
    const untouched = await notificationFor(other.id, "Not yours", ctx.clock.now());

    const response = await api().post("/api/notifications/read-all").set("Authorization", user.bearer);
    expect(response.status).toBe(204);
    const rows = await ctx.db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(Object.fromEntries(rows.map((row) => [row.title, row.readAt?.toISOString()]))).toEqual({
      One: ctx.clock.now().toISOString(),
      Two: ctx.clock.now().toISOString(),
      "Read before": earlier.toISOString(),
    });
    const [theirs] = await ctx.db.select().from(notifications).where(eq(notifications.id, untouched.id));
    expect(theirs!.readAt).toBeNull();
  });

  it("answers 401 without a session", async () => {
    expect((await api().post("/api/notifications/read-all")).status).toBe(401);
  });
});

const { setSwitch, kindsOf, mailsOf, scheduleWith } = notificationFixtures(ctx);

describe("each kind is created, and suppressed by its switch", () => {
  it("meeting scheduled: every participant but the scheduler, with a link to the meeting, in the bell and the outbox; none with Meeting Reminders off", async () => {
    const { founder, member } = await ctx.board("Scheduling Co");
    const on = await member();
    const off = await member();
    await setSwitch(off.id, notificationKinds.meetingScheduled, false);
    const meeting = await scheduleWith(
      founder.bearer,
      [founder.id, on.id, off.id],
      "Budget review",
      new Date(ctx.clock.now().getTime() + 7 * 24 * 60 * minute),
    );

    const list = (await api().get("/api/notifications").set("Authorization", on.bearer)).body as AppNotification[];
    expect(list).toEqual([
      expect.objectContaining({
        kind: "meetingScheduled",
        title: "Meeting scheduled: Budget review",
        link: `/meetings/${meeting.id}`,
        readAt: null,
      }),
    ]);
    expect((await mailsOf(on.id)).map((row) => [row.toAddress, row.status, (row.message as { kind: string }).kind])).toEqual([
      [on.email, "pending", "meetingScheduled"],
    ]);
    expect(await kindsOf(off.id)).toEqual([]);
    expect(await mailsOf(off.id)).toEqual([]);
    expect(await kindsOf(founder.id)).toEqual([]);
  });

  it("member added: nobody is told of a membership that inviting an existing account's address did not make", async () => {
    const { founder } = await ctx.board("Adding Co");
    const on = await ctx.signUp();
    await setSwitch(on.id, "boardMemberUpdates", true);
    const response = await api()
      .post(`/api/companies/${await companyOf(founder.bearer)}/members`)
      .set("Authorization", founder.bearer)
      .send({ email: on.email, role: "member" });
    expect(response.status).toBe(202);
    expect(await kindsOf(on.id)).toEqual([]);
    expect(await mailsOf(on.id)).toHaveLength(0);
  });

  it("role changed: the person whose role changed, with Board Member Updates on; none when it is off", async () => {
    const { founder, company, member } = await ctx.board("Roles Co");
    const on = await member();
    const off = await member();
    await setSwitch(on.id, "boardMemberUpdates", true);
    for (const person of [on, off]) {
      const response = await api()
        .patch(`/api/users/${person.id}/role`)
        .set("Authorization", founder.bearer)
        .send({ role: "admin", companyId: company.id });
      expect(response.status).toBe(200);
    }
    const [note] = await ctx.db.select().from(notifications).where(eq(notifications.userId, on.id));
    expect(note).toMatchObject({
      kind: "roleChanged",
      title: "Your role in Roles Co changed",
      body: "You are now an admin (before: member).",
      link: "/board-members",
    });
    expect(await kindsOf(off.id)).toEqual([]);
  });
});

async function companyOf(bearer: string): Promise<number> {
  const response = await api().get("/api/auth/user").set("Authorization", bearer);
  return (response.body as { companyId: number }).companyId;
}
