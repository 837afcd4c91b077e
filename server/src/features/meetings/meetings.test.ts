import { count, eq, inArray } from "drizzle-orm";
import request from "supertest";
import { documents, meetingParticipants, meetings, notifications } from "../../db/schema";
import { meetingContent as meetingContentFor } from "../../testing/factories";
import { useTestContext, type SignedUp } from "../../testing/test-context";

/** Where the test clock starts (createTestClock's default). */
const testStart = "2026-06-01T09:00:00.000Z";
const ctx = useTestContext();
// Some tests move the clock; each starts from the same moment.
afterEach(() => ctx.clock.set(testStart));

const api = () => request(ctx.app);
const hour = 60 * 60 * 1000;
const day = 24 * hour;

/** A founder with an active company, plus members made on demand. */
const board = (name = "Acme Holdings") => ctx.board(name, { firstName: "Fay", lastName: "Founder" });

function meetingContent(overrides: Record<string, unknown> = {}) {
  return meetingContentFor(new Date(new Date(testStart).getTime() + 3 * day), { agenda: "1. Call to order (5 min)", ...overrides });
}

function meetingBody(user: SignedUp, content: unknown, extra: Record<string, unknown> = {}) {
  const text = typeof content === "string" ? content : JSON.stringify(content);
  return {
    name: "Meeting: whatever the client says",
    fileType: "application/json",
    fileSize: text.length,
    content: text,
    category: "Meeting",
    companyId: user.companyId,
    uploadedBy: user.id,
    ...extra,
  };
}

async function schedule(user: SignedUp, content: unknown, extra: Record<string, unknown> = {}) {
  // The user's company may have been set after sign-up: read the current one.
  const me = await api().get("/api/auth/user").set("Authorization", user.bearer);
  const body = meetingBody({ ...user, companyId: me.body.companyId }, content, extra);
  return api().post("/api/documents").set("Authorization", user.bearer).send(body);
}

async function rowCounts() {
  const [docs] = await ctx.db.select({ n: count() }).from(documents);
  const [meets] = await ctx.db.select({ n: count() }).from(meetings);
  const [parts] = await ctx.db.select({ n: count() }).from(meetingParticipants);
  const [notes] = await ctx.db.select({ n: count() }).from(notifications);
  return { documents: docs!.n, meetings: meets!.n, participants: parts!.n, notifications: notes!.n };
}

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

describe("another company's meeting", () => {
  it("is 404 to a user of another company: the document, its agenda generation and its .ics", async () => {
    const { founder } = await board("Secret Board");
    const made = await schedule(founder, meetingContent({ title: "Takeover talks" }));
    const draft = await api()
      .post("/api/new-meeting")
      .set("Authorization", founder.bearer)
      .send({ title: "Draft", date: meetingContent().date });
    const outsider = (await board("Outsider Inc")).founder;
    for (const id of [made.body.id, draft.body.id]) {
      const attempts = [
        await api().get(`/api/documents/${id}`).set("Authorization", outsider.bearer),
        await api().post(`/api/meetings/${id}/generate-agenda`).set("Authorization", outsider.bearer),
        await api().get(`/api/meetings/${id}/calendar.ics`).set("Authorization", outsider.bearer),
      ];
      for (const response of attempts) {
        expect(response.status).toBe(404);
        expect(JSON.stringify(response.body)).not.toContain("Takeover");
      }
    }
    const list = await api().get("/api/documents").set("Authorization", outsider.bearer);
    expect(list.body).toEqual([]);
    const upcoming = await api().get(`/api/companies/${made.body.companyId}/meetings/upcoming`).set("Authorization", outsider.bearer);
    expect(upcoming.status).toBe(403);
  });

  it("answers 404 for ids that name nothing", async () => {
    const { founder } = await board();
    for (const path of ["/api/documents/999999", "/api/documents/abc", "/api/meetings/999999/calendar.ics"]) {
      expect((await api().get(path).set("Authorization", founder.bearer)).status).toBe(404);
    }
    expect((await api().post("/api/meetings/999999/generate-agenda").set("Authorization", founder.bearer)).status).toBe(404);
  });
});

describe("GET /api/meetings/:id/calendar.ics", () => {
  it("is an RFC 5545 event in UTC with the agenda as description", async () => {
    const { founder } = await board();
    const made = await schedule(
      founder,
      meetingContent({
        title: "Budget; review, 2026",
        date: "2026-07-15T13:30:00.000Z",
        endDate: "2026-07-15T15:30:00.000Z",
        location: "HQ, Room 4",
        agenda: "1. Call to order (5 min)\nOpen the meeting\n\n2. Budget (30 min)",
      }),
    );
    const response = await api().get(`/api/meetings/${made.body.id}/calendar.ics`).set("Authorization", founder.bearer);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(response.headers["content-disposition"]).toBe(`attachment; filename="meeting-${made.body.id}.ics"`);
    const text = response.text;
    expect(text.endsWith("\r\n")).toBe(true);
    const lines = text.replace(/\r\n /g, "").split("\r\n");
    expect(lines).toEqual(
      expect.arrayContaining([
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "BEGIN:VEVENT",
        `UID:meeting-${made.body.id}@quorum`,
        "DTSTAMP:20260601T090000Z",
        "DTSTART:20260715T133000Z",
        "DTEND:20260715T153000Z",
        "SUMMARY:Budget\\; review\\, 2026",
        "LOCATION:HQ\\, Room 4",
        "DESCRIPTION:1. Call to order (5 min)\\nOpen the meeting\\n\\n2. Budget (30 min)",
        "END:VEVENT",
        "END:VCALENDAR",
      ]),
    );
  });

  it("also opens with the session cookie (a download in a new tab)", async () => {
    const { founder } = await board();
    const made = await schedule(founder, meetingContent());
    const login = await api().post("/api/auth/login").send({ username: founder.username, password: founder.password });
    const cookie = login.headers["set-cookie"] as unknown as string[];
    const response = await api().get(`/api/meetings/${made.body.id}/calendar.ics`).set("Cookie", cookie);
    expect(response.status).toBe(200);
    expect(response.text).toContain("BEGIN:VEVENT");
  });
});

describe("GET /api/companies/:companyId/meetings/upcoming", () => {
  it("lists the company's future meetings soonest first, with participant counts, decided against the clock", async () => {
    const { founder, company, member } = await board();
    const ann = await member();
    const base = ctx.clock.now().getTime();
    const at = (offsetMs: number) => {
      const start = new Date(base + offsetMs);
      return { date: start.toISOString(), endDate: new Date(start.getTime() + 2 * hour).toISOString() };
    };
    const past = await schedule(founder, meetingContent({ title: "Last week", ...at(-7 * day) }));
    const later = await schedule(
      founder,
      meetingContent({ title: "Later", ...at(10 * day), participants: [String(ann.id), String(founder.id)] }),
    );
    const soon = await schedule(founder, meetingContent({ title: "Soon", ...at(1 * hour), status: "confirmed" }));
    await api()
      .post("/api/new-meeting")
      .set("Authorization", founder.bearer)
      .send({ title: "Draft", ...at(2 * day) });
    await schedule((await board("Neighbours")).founder, meetingContent({ title: "Not ours", ...at(2 * day) }));
    expect(past.status).toBe(201);

    const response = await api().get(`/api/companies/${company.id}/meetings/upcoming`).set("Authorization", ann.bearer);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { id: soon.body.id, title: "Soon", ...at(1 * hour), location: "Virtual (Zoom)", status: "confirmed", participantCount: 0 },
      { id: later.body.id, title: "Later", ...at(10 * day), location: "Virtual (Zoom)", status: "pending", participantCount: 2 },
    ]);

    // Exactly at its start a meeting is no longer upcoming.
    ctx.clock.set(new Date(base + 1 * hour));
    const after = await api().get(`/api/companies/${company.id}/meetings/upcoming`).set("Authorization", ann.bearer);
    expect(after.body.map((meeting: { title: string }) => meeting.title)).toEqual(["Later"]);
    ctx.clock.set(new Date(base));
  });
});
