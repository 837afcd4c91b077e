import { eq, inArray } from "drizzle-orm";
import { meetingParticipants, meetings, notifications } from "../../db/schema";
import { meetingFixtures, meetingsTestStart as testStart } from "../../testing/meeting-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();
// Some tests move the clock; each starts from the same moment.
afterEach(() => ctx.clock.set(testStart));

const { api, board, meetingContent, meetingBody, schedule, rowCounts } = meetingFixtures(ctx);

describe("scheduling a meeting (POST /api/documents, category Meeting)", () => {
  it("writes the document, meeting and participants, and reads the content back from the rows", async () => {
    const { founder, company, member } = await board();
    const ann = await member("member");
    const obi = await member("observer");
    const content = meetingContent({ participants: [String(ann.id), String(obi.id), String(ann.id)] });

    const response = await schedule(founder, content);
    expect(response.status).toBe(201);
    const document = response.body;
    expect(document).toMatchObject({
      id: expect.any(Number),
      name: "Meeting: Q3 Board Meeting",
      fileType: "application/json",
      category: "Meeting",
      companyId: company.id,
      uploadedBy: founder.id,
      hasFile: false,
    });
    const stored = JSON.parse(document.content);
    expect(stored).toEqual({
      type: "meeting",
      title: "Q3 Board Meeting",
      date: content.date,
      endDate: content.endDate,
      location: "Virtual (Zoom)",
      status: "pending",
      participants: [String(ann.id), String(obi.id)].sort((a, b) => Number(a) - Number(b)),
      agenda: "1. Call to order (5 min)",
    });
    expect(document.fileSize).toBe(Buffer.byteLength(document.content));

    const [meeting] = await ctx.db.select().from(meetings).where(eq(meetings.documentId, document.id));
    expect(meeting).toMatchObject({
      companyId: company.id,
      title: "Q3 Board Meeting",
      status: "pending",
      location: "Virtual (Zoom)",
      createdBy: founder.id,
    });
    expect(meeting!.startsAt.toISOString()).toBe(content.date);
    const participants = await ctx.db.select().from(meetingParticipants).where(eq(meetingParticipants.meetingId, document.id));
    expect(participants.map((row) => row.userId).sort()).toEqual([ann.id, obi.id].sort());

    const one = await api().get(`/api/documents/${document.id}`).set("Authorization", ann.bearer);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(document);
    const list = await api().get("/api/documents").set("Authorization", obi.bearer);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ ...document, truncated: false }]);
  });

  it("notifies every invited participant but the scheduler when sendNotifications is set, in one go", async () => {
    const { founder, member } = await board();
    const ann = await member("member");
    const ben = await member("admin");
    const cyd = await member("member");

    const quiet = await schedule(founder, meetingContent({ title: "Quiet", participants: [String(ann.id)] }), { sendNotifications: false });
    expect(quiet.status).toBe(201);
    const loud = await schedule(
      founder,
      meetingContent({ title: "Strategy day", participants: [String(ann.id), String(ben.id), String(founder.id)] }),
      {
        sendNotifications: true,
      },
    );
    expect(loud.status).toBe(201);

    const rows = await ctx.db
      .select()
      .from(notifications)
      .where(inArray(notifications.userId, [ann.id, ben.id, cyd.id, founder.id]));
    expect(rows.map((row) => row.userId).sort()).toEqual([ann.id, ben.id].sort());
    expect(rows[0]).toMatchObject({
      kind: "meetingScheduled",
      title: "Meeting scheduled: Strategy day",
      link: `/meetings/${loud.body.id}`,
    });
    expect(rows[0]!.body).toContain("Fay Founder");

    const bell = await api().get("/api/notifications").set("Authorization", ann.bearer);
    expect(bell.body).toEqual([expect.objectContaining({ title: "Meeting scheduled: Strategy day" })]);
  });

  it.each([
    ["content that is not JSON", "{not json", "content", "Meeting content must be JSON"],
    ["no title", meetingContent({ title: "  " }), "content.title", "Meeting title is required"],
    ["a date that is not ISO", meetingContent({ date: "next Tuesday" }), "content.date", "Date must be an ISO date and time"],
    [
      "an end that is not start + 2 h",
      meetingContent({ endDate: "2030-01-01T00:00:00.000Z" }),
      "content.endDate",
      "End date must be two hours after the start",
    ],
    ["no location", meetingContent({ location: "" }), "content.location", "Location is required"],
    ["a draft status", meetingContent({ status: "draft" }), "content.status", "Status must be pending, confirmed or cancelled"],
    ["another type", meetingContent({ type: "memo" }), "content.type", 'Meeting content must have type "meeting"'],
    [
      "participants that are not ids",
      meetingContent({ participants: ["bob"] }),
      "content.participants.0",
      "Participants must be member ids",
    ],
  ])("refuses %s with 400 and writes nothing", async (_label, content, path, message) => {
    const { founder } = await board();
    const before = await rowCounts();
    const response = await schedule(founder, content);
    expect(response.status).toBe(400);
    expect(response.body.errors).toContainEqual({ path, message });
    expect(response.body.message).toBe(response.body.errors[0].message);
    expect(await rowCounts()).toEqual(before);
  });

  it("refuses a participant from another company with 400 and writes nothing", async () => {
    const { founder, member } = await board("Home Co");
    const ann = await member("member");
    const other = await board("Other Co");
    const before = await rowCounts();
    const response = await schedule(founder, meetingContent({ participants: [String(ann.id), String(other.founder.id)] }), {
      sendNotifications: true,
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      message: "Participants must be members of the company",
      errors: [{ path: "content.participants", message: "Participants must be members of the company" }],
    });
    expect(await rowCounts()).toEqual(before);
  });

  it("refuses a body naming another company or another uploader", async () => {
    const { founder, member } = await board();
    const ann = await member("member");
    const other = await board("Elsewhere Ltd");
    const wrongCompany = await schedule(founder, meetingContent(), { companyId: other.company.id });
    expect(wrongCompany.status).toBe(400);
    expect(wrongCompany.body.message).toBe("companyId must be your active company");
    const wrongActor = await schedule(founder, meetingContent(), { uploadedBy: ann.id });
    expect(wrongActor.status).toBe(400);
    expect(wrongActor.body.message).toBe("uploadedBy must be the signed-in user");
  });

  it("forbids observers to schedule (403) but lets them read", async () => {
    const { founder, member } = await board();
    const obi = await member("observer");
    const before = await rowCounts();
    const refused = await schedule(obi, meetingContent());
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: "Observers cannot schedule meetings" });
    const draft = await api()
      .post("/api/new-meeting")
      .set("Authorization", obi.bearer)
      .send({ title: "Sneaky", date: meetingContent().date });
    expect(draft.status).toBe(403);
    expect(draft.body).toEqual({ message: "Observers cannot schedule meetings" });
    expect(await rowCounts()).toEqual(before);

    const made = await schedule(founder, meetingContent());
    expect((await api().get(`/api/documents/${made.body.id}`).set("Authorization", obi.bearer)).status).toBe(200);
    expect((await api().get(`/api/meetings/${made.body.id}/calendar.ics`).set("Authorization", obi.bearer)).status).toBe(200);
  });

  it("answers 401 without a session and 400 without an active company", async () => {
    expect(
      (
        await api()
          .post("/api/documents")
          .send(meetingBody({ id: 1, companyId: 1 } as SignedUp, meetingContent()))
      ).status,
    ).toBe(401);
    const loner = await ctx.signUp();
    const response = await api().get("/api/documents").set("Authorization", loner.bearer);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: "Create or choose a company first" });
  });
});
