import { and, eq } from "drizzle-orm";
import type { DocumentObject } from "../../../../shared/documents";
import { mailOutbox, meetings, notifications, userPreferences } from "../../db/schema";
import { hourMs, useLifecycleContext, lifecycleTestStart } from "../../testing/lifecycle-fixtures";

const { ctx, api, schedule, update, board, inDays } = useLifecycleContext();

async function sequenceOf(id: number): Promise<number> {
  const [row] = await ctx.db.select({ sequence: meetings.sequence }).from(meetings).where(eq(meetings.documentId, id));
  return row!.sequence;
}

const contentOf = (document: DocumentObject) => JSON.parse(document.content!) as Record<string, unknown>;

async function bellOf(userId: number, meetingId: number) {
  return ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.link, `/meetings/${meetingId}`)));
}

async function mailsOf(userId: number) {
  const rows = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.userId, userId));
  return rows.map((row) => row.message as { kind: string; title: string });
}

async function meetingRemindersOff(userId: number) {
  await ctx.db.insert(userPreferences).values({ userId, settings: { meetingReminders: false } });
}

describe("PATCH /api/meetings/:id", () => {
  it("a founder confirms: the answer is the meeting document, its sequence grows, the participants are told but the actor", async () => {
    const { founder, member } = await board();
    const ann = await member("member");
    const quiet = await member("observer");
    await meetingRemindersOff(quiet.id);
    const id = await schedule(founder, inDays(3), { title: "Budget review", participants: [founder.id, ann.id, quiet.id] });

    const response = await update(founder, id, { status: "confirmed" });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const document = response.body as DocumentObject;
    expect(document).toMatchObject({ id, name: "Meeting: Budget review", category: "Meeting" });
    expect(contentOf(document)).toMatchObject({ status: "confirmed", date: inDays(3).toISOString(), location: "Virtual (Zoom)" });
    expect(document.fileSize).toBe(Buffer.byteLength(document.content!, "utf8"));
    expect((await api().get(`/api/documents/${id}`).set("Authorization", ann.bearer)).body).toEqual(document);
    expect(await sequenceOf(id)).toBe(1);

    const [told] = await bellOf(ann.id, id);
    expect(told).toMatchObject({ kind: "meetingChanged", title: "Meeting confirmed: Budget review" });
    expect(told!.body).toBe('Fay Founder confirmed "Budget review": 4 Jun 2026, 09:00 UTC, Virtual (Zoom).');
    expect(await mailsOf(ann.id)).toEqual([expect.objectContaining({ kind: "meetingChanged", title: "Meeting confirmed: Budget review" })]);
    expect(await bellOf(founder.id, id)).toEqual([]);
    expect(await mailsOf(founder.id)).toEqual([]);
    expect(await bellOf(quiet.id, id)).toEqual([]);
    expect(await mailsOf(quiet.id)).toEqual([]);
  });

  it("confirming a confirmed meeting changes nothing: 200, same sequence, nobody told again", async () => {
    const { founder, member } = await board();
    const ann = await member("member");
    const id = await schedule(founder, inDays(3), { participants: [ann.id] });
    expect((await update(founder, id, { status: "confirmed" })).status).toBe(200);
    const again = await update(founder, id, { status: "confirmed", location: "Virtual (Zoom)", date: inDays(3).toISOString() });
    expect(again.status).toBe(200);
    expect(contentOf(again.body)).toMatchObject({ status: "confirmed" });
    expect(await sequenceOf(id)).toBe(1);
    expect(await bellOf(ann.id, id)).toHaveLength(1);
  });

  it("an admin reschedules: date, end, place and title move, the document is renamed, a confirmed meeting stays confirmed", async () => {
    const { founder, member } = await board();
    const admin = await member("admin", { firstName: "Ada", lastName: "Admin" });
    const id = await schedule(founder, inDays(3), { title: "Old title", participants: [founder.id, admin.id] });
    expect((await update(admin, id, { status: "confirmed" })).status).toBe(200);

    const start = new Date("2026-06-10T14:30:00.000Z");
    const moved = await update(admin, id, {
      date: start.toISOString(),
      endDate: new Date(start.getTime() + 2 * hourMs).toISOString(),
      location: "Board room, 3rd floor",
      title: "Strategy day",
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.name).toBe("Meeting: Strategy day");
    expect(contentOf(moved.body)).toMatchObject({
      title: "Strategy day",
      date: start.toISOString(),
      endDate: "2026-06-10T16:30:00.000Z",
      location: "Board room, 3rd floor",
      status: "confirmed",
    });
    expect(moved.body.fileSize).toBe(Buffer.byteLength(moved.body.content, "utf8"));
    expect(await sequenceOf(id)).toBe(2);

    // Without an end, the end follows the start.
    const later = await update(admin, id, { date: "2026-06-11T08:00:00.000Z" });
    expect(contentOf(later.body)).toMatchObject({ date: "2026-06-11T08:00:00.000Z", endDate: "2026-06-11T10:00:00.000Z" });
    expect(await sequenceOf(id)).toBe(3);

    const told = (await bellOf(founder.id, id)).sort((a, b) => a.id - b.id);
    expect(told.map((row) => row.title)).toEqual([
      "Meeting confirmed: Old title",
      "Meeting rescheduled: Strategy day",
      "Meeting rescheduled: Strategy day",
    ]);
    expect(told[1]!.body).toBe(
      'Ada Admin moved "Strategy day" to 10 Jun 2026, 14:30 UTC, Board room, 3rd floor. It was called "Old title".',
    );
    expect(await bellOf(admin.id, id)).toEqual([]);
  });

  it("a founder cancels; a cancelled meeting then refuses every change (409)", async () => {
    const { founder, member } = await board();
    const ann = await member("member");
    const id = await schedule(founder, inDays(3), { title: "Doomed", participants: [ann.id] });
    const cancelled = await update(founder, id, { status: "cancelled" });
    expect(cancelled.status).toBe(200);
    expect(contentOf(cancelled.body)).toMatchObject({ status: "cancelled" });
    expect(await sequenceOf(id)).toBe(1);
    const [told] = await bellOf(ann.id, id);
    expect(told).toMatchObject({
      title: "Meeting cancelled: Doomed",
      body: 'Fay Founder cancelled "Doomed", planned for 4 Jun 2026, 09:00 UTC, Virtual (Zoom).',
    });

    for (const body of [{ status: "confirmed" }, { status: "cancelled" }, { location: "Elsewhere" }, { date: inDays(5).toISOString() }]) {
      const refused = await update(founder, id, body);
      expect(refused.status, JSON.stringify(body)).toBe(409);
      expect(refused.body).toEqual({ message: "A cancelled meeting cannot be changed" });
    }
    expect(await sequenceOf(id)).toBe(1);
    expect(await bellOf(ann.id, id)).toHaveLength(1);
  });

  it("refuses to confirm a meeting whose start has passed (409), but confirms it moved into the future in the same request", async () => {
    const { founder } = await board();
    const id = await schedule(founder, inDays(3));
    ctx.clock.set(inDays(3));
    const refused = await update(founder, id, { status: "confirmed" });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: "A past meeting cannot be confirmed" });
    expect(await sequenceOf(id)).toBe(0);
    // Moved into the future in the same request, it may be confirmed.
    const movedAndConfirmed = await update(founder, id, { status: "confirmed", date: inDays(4).toISOString() });
    expect(movedAndConfirmed.status).toBe(200);
    expect(contentOf(movedAndConfirmed.body)).toMatchObject({ status: "confirmed", date: inDays(4).toISOString() });
  });

  it("refuses to cancel a meeting whose start has passed (409)", async () => {
    const { founder } = await board();
    const id = await schedule(founder, inDays(3));
    expect((await update(founder, id, { status: "confirmed" })).status).toBe(200);
    ctx.clock.set(inDays(3));
    const refused = await update(founder, id, { status: "cancelled" });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: "A past meeting cannot be cancelled" });
    expect(await sequenceOf(id)).toBe(1);
    // A minute before its start it still may be.
    ctx.clock.set(new Date(inDays(3).getTime() - 60_000));
    expect((await update(founder, id, { status: "cancelled" })).status).toBe(200);
  });

  // Each change reads the meeting under its row lock, so the second waits for the first and builds on its
  // result. Only real Postgres runs the two at once (PGlite serves one connection), so only there can it fail.
  it("two changes at once both hold and both count: one moves the place, one confirms", async () => {
    const { founder, member } = await board();
    const admin = await member("admin");
    for (let round = 0; round < 3; round += 1) {
      const id = await schedule(founder, inDays(3));
      const [moved, confirmed] = await Promise.all([
        update(admin, id, { location: "Board room" }),
        update(founder, id, { status: "confirmed" }),
      ]);
      expect([moved.status, confirmed.status]).toEqual([200, 200]);
      const [row] = await ctx.db.select().from(meetings).where(eq(meetings.documentId, id));
      expect(row).toMatchObject({ location: "Board room", status: "confirmed", sequence: 2 });
    }
  });

  it.each([
    ["a new date in the past", () => ({ date: inDays(-1).toISOString() }), "date", "The new date must be in the future"],
    ["a new date right now", () => ({ date: lifecycleTestStart }), "date", "The new date must be in the future"],
    [
      "an end that is not two hours after the start",
      () => ({ date: inDays(5).toISOString(), endDate: inDays(5.5).toISOString() }),
      "endDate",
      "End date must be two hours after the start",
    ],
    [
      "an end alone that does not fit the stored start",
      () => ({ endDate: inDays(5).toISOString() }),
      "endDate",
      "End date must be two hours after the start",
    ],
    ["an empty body", () => ({}), "", "Nothing to change"],
    ["an unknown status", () => ({ status: "pending" }), "status", "Status must be confirmed or cancelled"],
    ["an empty location", () => ({ location: "  " }), "location", "Location is required"],
    ["a location over two lines", () => ({ location: "Board room\n3rd floor" }), "location", "Must be a single line"],
    ["a control character in a location", () => ({ location: "Board room\u0000" }), "location", "Must not contain control characters"],
    ["a title over two lines", () => ({ title: "Strategy\r\nday" }), "title", "Must be a single line"],
    ["a control character in a title", () => ({ title: "Strategy\u001bday" }), "title", "Must not contain control characters"],
    ["a title over 200 characters", () => ({ title: "x".repeat(201) }), "title", "Title must be at most 200 characters"],
  ])("refuses %s (400)", async (_case, body, path, message) => {
    const { founder } = await board();
    const id = await schedule(founder, inDays(3));
    const refused = await update(founder, id, body());
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ path, message }]);
    expect(await sequenceOf(id)).toBe(0);
  });

  it("members and observers are refused (403); another company's meeting and a draft are not found (404)", async () => {
    const { founder, member } = await board();
    const id = await schedule(founder, inDays(3));
    for (const role of ["member", "observer"] as const) {
      const user = await member(role);
      const refused = await update(user, id, { status: "confirmed" });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe("Only founders and admins can confirm, reschedule or cancel a meeting");
    }
    const { founder: outsider } = await board("Elsewhere Ltd");
    expect((await update(outsider, id, { status: "cancelled" })).status).toBe(404);
    expect((await update(founder, 999_999, { status: "cancelled" })).status).toBe(404);
    expect(await sequenceOf(id)).toBe(0);

    const draft = await api()
      .post("/api/new-meeting")
      .set("Authorization", founder.bearer)
      .send({ title: "Draft", date: inDays(3).toISOString(), location: "Room" });
    expect(draft.status).toBe(201);
    const refused = await update(founder, draft.body.id, { status: "confirmed" });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe("Meeting not found");
  });
});
