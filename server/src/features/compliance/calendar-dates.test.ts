import { eq } from "drizzle-orm";
import { complianceRuleIds, type CalendarFeed } from "../../../../shared/compliance";
import { companies } from "../../db/schema";
import { complianceFixtures } from "../../testing/compliance-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();
const { api, schedule } = complianceFixtures(ctx);

/** The subscribed feed of `user`, fetched as a calendar app would (no session). */
async function subscribedFeed(user: SignedUp) {
  const address = await api().get(`/api/users/${user.id}/calendar-feed`).set("Authorization", user.bearer);
  expect(address.status).toBe(200);
  const url = (address.body as CalendarFeed).url;
  return api().get(url.slice(url.indexOf("/api/")));
}

/** The unfolded lines of the VEVENT whose UID is `uid`. */
function eventLines(ics: string, uid: string): string[] {
  const lines = ics.replace(/\r\n[ \t]/g, "").split("\r\n");
  const start = lines.indexOf(`UID:${uid}`);
  expect(start, `no event ${uid}`).toBeGreaterThan(0);
  return lines.slice(lines.lastIndexOf("BEGIN:VEVENT", start), lines.indexOf("END:VEVENT", start) + 1);
}

describe("calendar dates before 1970", () => {
  it("writes a meeting held in 1965 into its .ics", async () => {
    const { founder } = await ctx.board("Heritage Ltd");
    const id = await schedule(founder, new Date("1965-05-03T10:00:00.000Z"), "Founding board meeting");
    const response = await api().get(`/api/meetings/${id}/calendar.ics`).set("Authorization", founder.bearer);
    expect(response.status, response.text).toBe(200);
    expect(eventLines(response.text, `meeting-${id}@quorum`)).toEqual(
      expect.arrayContaining(["DTSTART:19650503T100000Z", "DTEND:19650503T120000Z", "SUMMARY:Founding board meeting"]),
    );
  });

  it("writes the due date that follows from a 1965 AGM into the compliance calendar and the subscribed feed", async () => {
    ctx.clock.set("2027-05-03T09:00:00.000Z");
    const { founder, company } = await ctx.board("Old Guard Ltd");
    await schedule(founder, new Date("1965-05-03T10:00:00.000Z"), "Annual General Meeting 1965");
    // The next AGM was due 15 months after that one.
    const agmDue = [`UID:${complianceRuleIds.annualGeneralMeeting}.company-${company.id}@quorum`, "DTSTART;VALUE=DATE:19660803"];

    const calendar = await api().get(`/api/companies/${company.id}/compliance.ics`).set("Authorization", founder.bearer);
    expect(calendar.status, calendar.text).toBe(200);
    expect(eventLines(calendar.text, agmDue[0]!.slice(4))).toEqual(expect.arrayContaining(agmDue));

    const feed = await subscribedFeed(founder);
    expect(feed.status, feed.text).toBe(200);
    expect(eventLines(feed.text, agmDue[0]!.slice(4))).toEqual(expect.arrayContaining(agmDue));
  });
});

describe("compliance due dates in the calendar feed", () => {
  it("are all-day events on their due date, not timed events at the minute they were computed", async () => {
    ctx.clock.set("2027-05-03T12:59:42.000Z");
    const { founder, company } = await ctx.board("Punctual Ltd");
    // The company is created on the test clock's day: its first AGM is due 18 months later, on November 3, 2028.
    await ctx.db.update(companies).set({ createdAt: ctx.clock.now() }).where(eq(companies.id, company.id));
    const feed = await subscribedFeed(founder);
    expect(feed.status).toBe(200);
    const agm = eventLines(feed.text, `${complianceRuleIds.annualGeneralMeeting}.company-${company.id}@quorum`);
    expect(agm).toEqual(
      expect.arrayContaining(["SUMMARY:Annual General Meeting due", "DTSTART;VALUE=DATE:20281103", "DTEND;VALUE=DATE:20281104"]),
    );
    // Every due date is a date: no DTSTART or DTEND with a time is left on a due-date event.
    const dueLines = feed.text
      .split("BEGIN:VEVENT")
      .filter((event) => !event.includes("UID:meeting-"))
      .slice(1)
      .flatMap((event) => event.split("\r\n"))
      .filter((line) => /^DT(START|END)/.test(line));
    expect(dueLines.length).toBeGreaterThan(0);
    for (const line of dueLines) expect(line).toMatch(/^DT(START|END);VALUE=DATE:\d{8}$/);
  });
});
