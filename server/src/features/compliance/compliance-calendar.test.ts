import { and, eq } from "drizzle-orm";
import { complianceRuleIds, type CalendarFeed } from "../../../../shared/compliance";
import { memberships } from "../../db/schema";
import { complianceFixtures } from "../../testing/compliance-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();

const { api, board, schedule } = complianceFixtures(ctx);

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
