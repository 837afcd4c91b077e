import { meetingFixtures, meetingsTestStart as testStart } from "../../testing/meeting-fixtures";
import { useTestContext } from "../../testing/test-context";

const ctx = useTestContext();
// Some tests move the clock; each starts from the same moment.
afterEach(() => ctx.clock.set(testStart));

const hour = 60 * 60 * 1000;
const day = 24 * hour;

const { api, board, meetingContent, schedule } = meetingFixtures(ctx);

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
      {
        id: soon.body.id,
        title: "Soon",
        ...at(1 * hour),
        location: "Virtual (Zoom)",
        status: "confirmed",
        participantCount: 0,
        papersChanged: false,
      },
      {
        id: later.body.id,
        title: "Later",
        ...at(10 * day),
        location: "Virtual (Zoom)",
        status: "pending",
        participantCount: 2,
        papersChanged: false,
      },
    ]);

    // Exactly at its start a meeting is no longer upcoming.
    ctx.clock.set(new Date(base + 1 * hour));
    const after = await api().get(`/api/companies/${company.id}/meetings/upcoming`).set("Authorization", ann.bearer);
    expect(after.body.map((meeting: { title: string }) => meeting.title)).toEqual(["Later"]);
    ctx.clock.set(new Date(base));
  });
});
