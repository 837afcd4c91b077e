import { eq } from "drizzle-orm";
import { documents, meetings } from "../../db/schema";
import { meetingFixtures, meetingsTestStart as testStart } from "../../testing/meeting-fixtures";
import { useTestContext } from "../../testing/test-context";

const ctx = useTestContext();
// Some tests move the clock; each starts from the same moment.
afterEach(() => ctx.clock.set(testStart));

const hour = 60 * 60 * 1000;

const { api, board, meetingContent, schedule } = meetingFixtures(ctx);

describe("drafts (POST /api/new-meeting)", () => {
  it("creates a draft that is never listed nor read as a document, and purges drafts older than a day", async () => {
    const { founder } = await board();
    const made = await schedule(founder, meetingContent({ title: "Real one" }));
    const date = meetingContent().date;
    const draft = await api().post("/api/new-meeting").set("Authorization", founder.bearer).send({
      title: "Draft for agenda",
      date,
      endDate: date,
      location: "Board room",
      status: "draft",
      companyId: made.body.companyId,
      createdBy: founder.id,
    });
    expect(draft.status).toBe(201);
    expect(draft.body).toEqual({ id: expect.any(Number) });
    const [row] = await ctx.db.select().from(meetings).where(eq(meetings.documentId, draft.body.id));
    expect(row).toMatchObject({ status: "draft", title: "Draft for agenda", createdBy: founder.id });
    expect(row!.endsAt.getTime() - row!.startsAt.getTime()).toBe(2 * hour);

    const list = await api().get("/api/documents").set("Authorization", founder.bearer);
    expect(list.body.map((document: { id: number }) => document.id)).toEqual([made.body.id]);
    expect((await api().get(`/api/documents/${draft.body.id}`).set("Authorization", founder.bearer)).status).toBe(404);
    expect((await api().get(`/api/meetings/${draft.body.id}/calendar.ics`).set("Authorization", founder.bearer)).status).toBe(404);
    const upcoming = await api().get(`/api/companies/${made.body.companyId}/meetings/upcoming`).set("Authorization", founder.bearer);
    expect(upcoming.body.map((meeting: { id: number }) => meeting.id)).toEqual([made.body.id]);

    // 23 hours later the draft stays; 25 hours later the next draft sweeps it away (and nothing else).
    ctx.clock.advance(23 * hour);
    await api().post("/api/new-meeting").set("Authorization", founder.bearer).send({ title: "Another", date });
    expect(await ctx.db.select().from(documents).where(eq(documents.id, draft.body.id))).toHaveLength(1);
    ctx.clock.advance(2 * hour);
    const next = await api().post("/api/new-meeting").set("Authorization", founder.bearer).send({ title: "Third", date });
    expect(next.status).toBe(201);
    expect(await ctx.db.select().from(documents).where(eq(documents.id, draft.body.id))).toHaveLength(0);
    expect(await ctx.db.select().from(meetings).where(eq(meetings.documentId, draft.body.id))).toHaveLength(0);
    expect(await ctx.db.select().from(documents).where(eq(documents.id, made.body.id))).toHaveLength(1);
    expect(await ctx.db.select().from(documents).where(eq(documents.id, next.body.id))).toHaveLength(1);
  });

  it("asks for a title and a date", async () => {
    const { founder } = await board();
    const response = await api().post("/api/new-meeting").set("Authorization", founder.bearer).send({ title: "", date: "soon" });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { path: "title", message: "Please provide a meeting title first" },
      { path: "date", message: "Date must be an ISO date and time" },
    ]);
  });
});
