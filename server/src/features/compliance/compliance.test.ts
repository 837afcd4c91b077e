import { and, eq } from "drizzle-orm";
import request from "supertest";
import { complianceRuleIds, type CalendarFeed, type ComplianceGroup } from "../../../../shared/compliance";
import { companies, memberships } from "../../db/schema";
import { meetingContent } from "../../testing/factories";
import { samplePdf } from "../../testing/sample-files";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();

const api = () => request(ctx.app);
const day = 24 * 60 * 60 * 1000;

/** A board whose company was created on the test clock's day (the factory uses the database's time). */
async function board(name: string) {
  const made = await ctx.board(name);
  await ctx.db.update(companies).set({ createdAt: ctx.clock.now() }).where(eq(companies.id, made.company.id));
  return made;
}

async function compliance(user: SignedUp, companyId: number): Promise<ComplianceGroup[]> {
  const response = await api().get(`/api/companies/${companyId}/compliance`).set("Authorization", user.bearer);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as ComplianceGroup[];
}

/** Signs in again (after the test clock has moved past the session's idle limit). */
async function signIn(user: SignedUp): Promise<SignedUp> {
  const response = await api().post("/api/auth/login").send({ username: user.username, password: user.password });
  expect(response.status).toBe(200);
  return { ...user, bearer: `Bearer ${response.body.token as string}` };
}

const progress = (groups: ComplianceGroup[]) => Object.fromEntries(groups.map((group) => [group.name, group.progress]));
const statusOf = (groups: ComplianceGroup[], id: string) => groups.flatMap((group) => group.items).find((item) => item.id === id)?.status;

async function schedule(user: SignedUp, start: Date, title: string): Promise<number> {
  const response = await api()
    .post("/api/documents")
    .set("Authorization", user.bearer)
    .send({ category: "Meeting", content: JSON.stringify(meetingContent(start, { title, status: "confirmed" })) });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as number;
}

async function upload(user: SignedUp, name: string, category: string): Promise<void> {
  const response = await api()
    .post("/api/documents")
    .set("Authorization", user.bearer)
    .send({ name, fileType: "application/pdf", content: `data:application/pdf;base64,${samplePdf().toString("base64")}`, category });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

describe("GET /api/companies/:companyId/compliance", () => {
  it("answers 401 without a session and 403 to another company's member", async () => {
    const { company } = await board("Guarded Ltd");
    const { founder: outsider } = await board("Elsewhere Ltd");
    expect((await api().get(`/api/companies/${company.id}/compliance`)).status).toBe(401);
    const refused = await api().get(`/api/companies/${company.id}/compliance`).set("Authorization", outsider.bearer);
    expect(refused.status).toBe(403);
    expect(Object.keys(refused.body)).toEqual(["message"]);
  });

  it("scores a new company low, and the right meetings, documents and votes raise each group to 100", async () => {
    ctx.clock.set("2027-01-05T09:00:00.000Z");
    const { founder, company, member } = await board("Diligent Holdings");
    const director = await member("member");

    const fresh = await compliance(director, company.id);
    expect(fresh.map((group) => group.name)).toEqual(["Meetings", "Documents", "Resolutions"]);
    expect(progress(fresh)).toEqual({ Meetings: 0, Documents: 0, Resolutions: 50 });
    for (const group of fresh) for (const item of group.items) expect(Object.values(complianceRuleIds)).toContain(item.id);
    expect(fresh[0]!.items.find((item) => item.id === complianceRuleIds.annualGeneralMeeting)?.dueDate).toBe("2028-07-05T09:00:00.000Z");

    // A board meeting and the AGM, each scheduled ten days ahead: upcoming.
    await schedule(founder, new Date("2027-01-15T10:00:00.000Z"), "Q1 Board Meeting");
    await schedule(founder, new Date("2027-01-15T14:00:00.000Z"), "Annual General Meeting 2027");
    const booked = await compliance(founder, company.id);
    expect(statusOf(booked, complianceRuleIds.quarterlyBoardMeeting)).toBe("upcoming");
    expect(statusOf(booked, complianceRuleIds.annualGeneralMeeting)).toBe("upcoming");

    // The Legal and Financial documents now; the minutes once the meetings are over.
    await upload(founder, "Articles of Association.pdf", "Legal");
    await upload(founder, "FY2026 Accounts.pdf", "Financial");

    // A resolution everyone votes on is decided with quorum at the last vote.
    const resolution = await api()
      .post("/api/resolutions")
      .set("Authorization", founder.bearer)
      .send({
        title: "Adopt the accounts",
        description: "FY2026",
        type: "Ordinary",
        deadline: new Date(ctx.clock.now().getTime() + 7 * day).toISOString(),
      });
    expect(resolution.status).toBe(201);
    for (const voter of [founder, director]) {
      expect(
        (await api().post(`/api/resolutions/${resolution.body.id}/vote`).set("Authorization", voter.bearer).send({ vote: "yes" })).status,
      ).toBe(200);
    }

    ctx.clock.set("2027-01-16T09:00:00.000Z");
    const held = await compliance(founder, company.id);
    expect(progress(held), JSON.stringify(held[1])).toEqual({ Meetings: 100, Documents: 67, Resolutions: 100 });
    expect(statusOf(held, complianceRuleIds.meetingMinutes)).toBe("pending");

    await upload(founder, "Board minutes 2027-01-15.pdf", "General");
    await upload(founder, "AGM Minutes.pdf", "General");
    const done = await compliance(director, company.id);
    expect(progress(done)).toEqual({ Meetings: 100, Documents: 100, Resolutions: 100 });
    for (const group of done) for (const item of group.items) expect(item.status).toBe("completed");
  });

  it("marks what slips: short notice, an expired resolution, missing minutes", async () => {
    ctx.clock.set("2027-02-01T09:00:00.000Z");
    const { founder, company } = await board("Hasty Ltd");
    await schedule(founder, new Date("2027-02-03T10:00:00.000Z"), "Emergency board meeting");
    const resolution = await api()
      .post("/api/resolutions")
      .set("Authorization", founder.bearer)
      .send({ title: "Urgent", description: "Now", type: "Ordinary", deadline: "2027-02-02T09:00:00.000Z" });
    expect(resolution.status).toBe(201);
    ctx.clock.set("2027-03-10T09:00:00.000Z");
    const groups = await compliance(await signIn(founder), company.id);
    expect(statusOf(groups, complianceRuleIds.meetingNotice)).toBe("overdue");
    expect(statusOf(groups, complianceRuleIds.meetingMinutes)).toBe("overdue");
    // Nothing has decided the resolution yet (no list was read, no sweep ran): the record shows it expired.
    expect(statusOf(groups, complianceRuleIds.noExpiredResolutions)).toBe("overdue");
  });

  it("costs the same few queries whatever the company's size", async () => {
    ctx.clock.set("2027-04-02T09:00:00.000Z");
    const { founder, company } = await board("Busy Ltd");
    const cost = () => ctx.countQueries(() => compliance(founder, company.id));
    const empty = await cost();
    for (let index = 0; index < 5; index += 1) {
      await schedule(founder, new Date(ctx.clock.now().getTime() + (10 + index) * day), `Meeting ${index}`);
      await upload(founder, `Minutes ${index}.pdf`, "Financial");
      await api()
        .post("/api/resolutions")
        .set("Authorization", founder.bearer)
        .send({
          title: `Resolution ${index}`,
          description: "Vote",
          type: "Ordinary",
          deadline: new Date(ctx.clock.now().getTime() + day).toISOString(),
        });
    }
    ctx.clock.advance(60 * day);
    const again = await signIn(founder);
    const busy = await ctx.countQueries(() => compliance(again, company.id));
    expect(busy).toBe(empty);
    // The session (the active company's membership comes with it) and the one record read.
    expect(busy).toBe(2);
  });
});

/** Unfolds an RFC 5545 text after checking its framing: CRLF only, no physical line over 75 octets. */
function unfoldIcs(text: string): string[] {
  expect(text.endsWith("\r\n")).toBe(true);
  expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
  for (const line of text.split("\r\n")) expect(Buffer.byteLength(line, "utf8"), line).toBeLessThanOrEqual(75);
  return text
    .slice(0, -2)
    .replace(/\r\n[ \t]/g, "")
    .split("\r\n");
}

/** The VEVENTs of an unfolded calendar, each as its properties. */
function events(lines: string[]): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  let current: Record<string, string> | null = null;
  for (const line of lines) {
    if (line === "BEGIN:VEVENT") current = {};
    else if (line === "END:VEVENT") {
      found.push(current!);
      current = null;
    } else if (current && !line.startsWith("BEGIN:") && !line.startsWith("END:")) {
      const colon = line.indexOf(":");
      current[line.slice(0, colon)] ??= line.slice(colon + 1);
    }
  }
  return found;
}

describe("the compliance calendar", () => {
  it("holds every upcoming meeting and every due date, in UTC, folded by octets", async () => {
    ctx.clock.set("2027-05-03T09:00:00.000Z");
    const { founder, company } = await board("Réunion du conseil — 2027 ✓ 董事会");
    const title = "Réunion du conseil — 2027 ✓ 董事会 — ordre du jour complet";
    const id = await schedule(founder, new Date("2027-05-20T08:30:00.000Z"), title);
    await schedule(founder, new Date("2027-04-01T08:30:00.000Z"), "Past meeting");
    const response = await api().get(`/api/companies/${company.id}/compliance.ics`).set("Authorization", founder.bearer);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    const lines = unfoldIcs(response.text);
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
    expect(lines.at(-1)).toBe("END:VCALENDAR");
    expect(lines).toContain("X-WR-CALNAME:Réunion du conseil — 2027 ✓ 董事会 (Quorum)");
    const all = events(lines);
    expect(all.find((event) => event.UID === `meeting-${id}@quorum`)).toMatchObject({
      SUMMARY: title,
      DTSTART: "20270520T083000Z",
      DTEND: "20270520T103000Z",
    });
    expect(all.some((event) => event.SUMMARY === "Past meeting")).toBe(false);
    const dueUids = all.filter((event) => !event.UID!.startsWith("meeting-")).map((event) => event.UID);
    expect(dueUids.sort()).toEqual(
      // The past meeting has no minutes yet: they have a due date too.
      [
        complianceRuleIds.quarterlyBoardMeeting,
        complianceRuleIds.annualGeneralMeeting,
        complianceRuleIds.financialStatements,
        complianceRuleIds.meetingMinutes,
      ]
        .map((rule) => `${rule}.company-${company.id}@quorum`)
        .sort(),
    );
    expect(all.find((event) => event.UID!.startsWith(complianceRuleIds.annualGeneralMeeting))).toMatchObject({
      SUMMARY: "Annual General Meeting due",
      "DTSTART;VALUE=DATE": "20281103",
    });
    // Times (the meetings', the stamps) are in UTC; due dates are dates.
    for (const line of lines.filter((line) => /^(DTSTART|DTEND|DTSTAMP):/.test(line))) expect(line).toMatch(/:\d{8}T\d{6}Z$/);
  });

  it("answers 401 without a session and 403 to another company's member", async () => {
    const { company } = await board("Private Ltd");
    const { founder: outsider } = await board("Nosy Ltd");
    expect((await api().get(`/api/companies/${company.id}/compliance.ics`)).status).toBe(401);
    expect((await api().get(`/api/companies/${company.id}/compliance.ics`).set("Authorization", outsider.bearer)).status).toBe(403);
  });
});

describe("the calendar feed", () => {
  const feedOf = async (user: SignedUp, query = "") => {
    const response = await api().get(`/api/users/${user.id}/calendar-feed${query}`).set("Authorization", user.bearer);
    return { status: response.status, feed: response.body as CalendarFeed };
  };
  /** The feed's path and query, as a calendar app would fetch it (no session). */
  const pathOf = (url: string) => url.slice(url.indexOf("/api/"));

  it("opens without a session with its secret, and never with a wrong one", async () => {
    ctx.clock.set("2027-05-03T09:00:00.000Z");
    const { founder, company } = await board("Subscribed Ltd");
    await schedule(founder, new Date("2027-05-20T08:30:00.000Z"), "Board meeting");
    const { status, feed } = await feedOf(founder);
    expect(status).toBe(200);
    expect(feed.companyId).toBe(company.id);
    const url = new URL(feed.url);
    expect(url.pathname).toBe("/api/calendar-feed.ics");
    expect(url.searchParams.get("key")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The same address every time until rotated.
    expect((await feedOf(founder, `?companyId=${company.id}`)).feed.url).toBe(feed.url);

    const opened = await api().get(pathOf(feed.url));
    expect(opened.status).toBe(200);
    expect(opened.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(events(unfoldIcs(opened.text)).some((event) => event.SUMMARY === "Board meeting")).toBe(true);

    const key = url.searchParams.get("key")!;
    const wrongKey = `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`;
    for (const path of [
      pathOf(feed.url).replace(key, wrongKey),
      pathOf(feed.url).replace(key, "short"),
      pathOf(feed.url).replace(`company=${company.id}`, `company=${company.id + 1000}`),
      pathOf(feed.url).replace(`user=${founder.id}`, `user=${founder.id + 1000}`),
      pathOf(feed.url).replace(`user=${founder.id}`, "user=abc"),
    ]) {
      const refused = await api().get(path);
      expect(refused.status, path).toBe(404);
      expect(refused.text).not.toContain("BEGIN:VCALENDAR");
    }
    expect((await api().get("/api/calendar-feed.ics")).status).toBe(400);
    // The secret is never written to the log.
    expect(ctx.logs.some((line) => line.includes(key))).toBe(false);
  });

  it("rotating stops the old address; leaving the company stops it too", async () => {
    ctx.clock.set("2027-05-03T09:00:00.000Z");
    const { founder, company, member } = await board("Rotating Ltd");
    const director = await member("member");
    const before = (await feedOf(director)).feed;
    expect((await api().get(pathOf(before.url))).status).toBe(200);

    const rotated = await api().post(`/api/users/${director.id}/calendar-feed/rotate`).set("Authorization", director.bearer);
    expect(rotated.status).toBe(200);
    const after = rotated.body as CalendarFeed;
    expect(after.url).not.toBe(before.url);
    expect((await api().get(pathOf(before.url))).status).toBe(404);
    expect((await api().get(pathOf(after.url))).status).toBe(200);
    expect((await feedOf(director)).feed.url).toBe(after.url);

    // Only the user themself.
    expect((await api().get(`/api/users/${director.id}/calendar-feed`).set("Authorization", founder.bearer)).status).toBe(403);
    expect((await api().post(`/api/users/${director.id}/calendar-feed/rotate`).set("Authorization", founder.bearer)).status).toBe(403);

    await ctx.db.delete(memberships).where(and(eq(memberships.companyId, company.id), eq(memberships.userId, director.id)));
    expect((await api().get(pathOf(after.url))).status).toBe(404);
  });

  it("is refused for another company: 403, or 400 for no company id", async () => {
    const { founder } = await board("Mine Ltd");
    const { company: other } = await board("Theirs Ltd");
    expect((await feedOf(founder, `?companyId=${other.id}`)).status).toBe(403);
    expect(
      (await api().post(`/api/users/${founder.id}/calendar-feed/rotate?companyId=${other.id}`).set("Authorization", founder.bearer)).status,
    ).toBe(403);
    expect((await feedOf(founder, "?companyId=abc")).status).toBe(400);
  });
});
