import ICAL from "ical.js";
import type { CalendarFeed } from "../../../../shared/compliance";
import type { SignedUp } from "../../testing/test-context";
import { useLifecycleContext } from "../../testing/lifecycle-fixtures";

const { ctx, api, schedule, update, calendar, inDays } = useLifecycleContext();

/** The events of an iCalendar text, parsed as a calendar app would. */
function eventsOf(ics: string): ICAL.Component[] {
  return new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents("vevent");
}

/** What a calendar app keeps of a meeting's event. */
function summaryOf(event: ICAL.Component) {
  return {
    uid: event.getFirstPropertyValue("uid"),
    sequence: event.getFirstPropertyValue("sequence"),
    status: event.getFirstPropertyValue("status"),
    start: (event.getFirstPropertyValue("dtstart") as ICAL.Time).toJSDate().toISOString(),
    end: (event.getFirstPropertyValue("dtend") as ICAL.Time).toJSDate().toISOString(),
    location: event.getFirstPropertyValue("location"),
  };
}

async function meetingIcs(user: SignedUp, id: number) {
  const response = await calendar(user, id);
  expect(response.status).toBe(200);
  const events = eventsOf(response.text);
  expect(events).toHaveLength(1);
  return summaryOf(events[0]!);
}

describe("a meeting's .ics follows its lifecycle", () => {
  it("SEQUENCE and STATUS: 0 TENTATIVE when scheduled, 1 CONFIRMED, 2 moved, 3 CANCELLED; the uid never changes", async () => {
    const { founder } = await ctx.board("Calendar Ltd");
    const id = await schedule(founder, inDays(3));
    const uid = `meeting-${id}@quorum`;
    expect(await meetingIcs(founder, id)).toMatchObject({ uid, sequence: 0, status: "TENTATIVE", start: inDays(3).toISOString() });

    expect((await update(founder, id, { status: "confirmed" })).status).toBe(200);
    expect(await meetingIcs(founder, id)).toMatchObject({ uid, sequence: 1, status: "CONFIRMED" });

    expect((await update(founder, id, { date: "2026-06-10T14:30:00.000Z", location: "Board room" })).status).toBe(200);
    expect(await meetingIcs(founder, id)).toEqual({
      uid,
      sequence: 2,
      status: "CONFIRMED",
      start: "2026-06-10T14:30:00.000Z",
      end: "2026-06-10T16:30:00.000Z",
      location: "Board room",
    });

    expect((await update(founder, id, { status: "cancelled" })).status).toBe(200);
    expect(await meetingIcs(founder, id)).toMatchObject({ uid, sequence: 3, status: "CANCELLED", start: "2026-06-10T14:30:00.000Z" });
  });
});

describe("the company calendar and the subscribed feed", () => {
  it("keep a cancelled meeting, marked CANCELLED with its new sequence, beside the others", async () => {
    const { founder, company, member } = await ctx.board("Feed Ltd");
    const director = await member("member");
    const kept = await schedule(founder, inDays(3), { title: "Kept" });
    const cancelled = await schedule(founder, inDays(4), { title: "Called off" });
    expect((await update(founder, kept, { status: "confirmed" })).status).toBe(200);
    expect((await update(founder, cancelled, { status: "cancelled" })).status).toBe(200);

    const expected = [
      expect.objectContaining({ uid: `meeting-${kept}@quorum`, sequence: 1, status: "CONFIRMED" }),
      expect.objectContaining({ uid: `meeting-${cancelled}@quorum`, sequence: 1, status: "CANCELLED" }),
    ];
    const meetingEvents = (ics: string) =>
      eventsOf(ics)
        .map(summaryOf)
        .filter((event) => String(event.uid).startsWith("meeting-"));

    const companyIcs = await api().get(`/api/companies/${company.id}/compliance.ics`).set("Authorization", director.bearer);
    expect(companyIcs.status).toBe(200);
    expect(meetingEvents(companyIcs.text)).toEqual(expected);

    const address = await api().get(`/api/users/${director.id}/calendar-feed`).set("Authorization", director.bearer);
    expect(address.status).toBe(200);
    const url = (address.body as CalendarFeed).url;
    // As a calendar app fetches it: no session, the key in the query.
    const feed = await api().get(url.slice(url.indexOf("/api/")));
    expect(feed.status).toBe(200);
    expect(meetingEvents(feed.text)).toEqual(expected);
  });
});
