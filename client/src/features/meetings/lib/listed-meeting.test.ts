import {
  fromListedMeeting,
  hasStarted,
  isUpcoming,
  matchesMeetingSearch,
  meetingLink,
  splitMeetings,
  toMeetingSummary,
} from "@/features/meetings/lib/listed-meeting";
import { meetingBadge } from "@/features/meetings/lib/meeting-status";
import { formatMeetingRange } from "@/features/meetings/lib/format-meeting";

const content = (fields: Record<string, unknown>) =>
  JSON.stringify({
    type: "meeting",
    title: "Budget review",
    date: "2026-06-10T14:00:00.000Z",
    endDate: "2026-06-10T16:00:00.000Z",
    location: "HQ",
    status: "confirmed",
    participants: ["1", "2"],
    agenda: "1. Open",
    ...fields,
  });

describe("fromListedMeeting", () => {
  it("turns the upcoming endpoint's ISO dates into the summary's Dates", () => {
    const meeting = fromListedMeeting({
      id: 9,
      title: "AGM",
      date: "2026-08-01T09:00:00.000Z",
      endDate: "2026-08-01T11:00:00.000Z",
      location: "HQ",
      status: "pending",
      participantCount: 2,
    });
    expect(meeting).toEqual({
      id: 9,
      title: "AGM",
      date: new Date("2026-08-01T09:00:00.000Z"),
      endDate: new Date("2026-08-01T11:00:00.000Z"),
      location: "HQ",
      status: "pending",
      participantCount: 2,
    });
  });
});

describe("toMeetingSummary", () => {
  it("reads the content", () => {
    const meeting = toMeetingSummary({ id: 4, name: "Meeting: Budget review", content: content({}) });
    expect(meeting).toEqual({
      id: 4,
      title: "Budget review",
      date: new Date("2026-06-10T14:00:00.000Z"),
      endDate: new Date("2026-06-10T16:00:00.000Z"),
      location: "HQ",
      status: "confirmed",
      participantCount: 2,
      participants: ["1", "2"],
      agenda: "1. Open",
    });
  });

  it("falls back to a usable row when the content does not parse", () => {
    const now = new Date("2026-01-01T10:00:00.000Z");
    const meeting = toMeetingSummary({ id: 5, name: "Meeting: Strategy day", content: "{broken" }, now);
    expect(meeting).toMatchObject({ title: "Strategy day", date: now, location: "Not specified", status: "pending", participantCount: 0 });
    expect(toMeetingSummary({ id: 6, name: "Odd name", content: null }, now).title).toBe("Odd name");
  });
});

describe("upcoming versus past, against an injected clock", () => {
  const at = (iso: string, title = iso) => ({ title, date: new Date(iso) });
  const now = new Date("2026-06-01T09:00:00.000Z");

  it("puts a meeting one millisecond ahead in Upcoming, and one starting exactly now in Past", () => {
    const ahead = at("2026-06-01T09:00:00.001Z", "ahead");
    const exactlyNow = at("2026-06-01T09:00:00.000Z", "now");
    const behind = at("2026-06-01T08:59:59.999Z", "behind");
    expect(isUpcoming(ahead, now)).toBe(true);
    expect(isUpcoming(exactlyNow, now)).toBe(false);
    expect(isUpcoming(behind, now)).toBe(false);
    const split = splitMeetings(
      [behind, ahead, exactlyNow, at("2026-07-01T00:00:00Z", "later"), at("2025-01-01T00:00:00Z", "long ago")],
      now,
    );
    expect(split.upcoming.map((m) => m.title)).toEqual(["ahead", "later"]);
    expect(split.past.map((m) => m.title)).toEqual(["now", "behind", "long ago"]);
  });

  it("lists a cancelled meeting with the past ones, whatever its date", () => {
    const cancelled = { ...at("2026-07-01T00:00:00Z", "cancelled"), status: "cancelled" };
    const confirmed = { ...at("2026-07-02T00:00:00Z", "confirmed"), status: "confirmed" };
    expect(isUpcoming(cancelled, now)).toBe(false);
    expect(hasStarted(cancelled, now)).toBe(false);
    const split = splitMeetings([cancelled, confirmed, at("2026-05-01T00:00:00Z", "past")], now);
    expect(split.upcoming.map((m) => m.title)).toEqual(["confirmed"]);
    expect(split.past.map((m) => m.title)).toEqual(["cancelled", "past"]);
  });

  it("moves a meeting to Past once the clock passes it", () => {
    const meeting = at("2026-06-01T10:00:00.000Z");
    expect(splitMeetings([meeting], new Date("2026-06-01T09:59:59.999Z")).upcoming).toHaveLength(1);
    expect(splitMeetings([meeting], new Date("2026-06-01T10:00:00.000Z")).past).toHaveLength(1);
  });
});

describe("search, links, badges and formats", () => {
  it("matches titles case-insensitively", () => {
    expect(matchesMeetingSearch({ title: "Q3 Board Meeting" }, "board")).toBe(true);
    expect(matchesMeetingSearch({ title: "Q3 Board Meeting" }, "  Q3 BOARD ")).toBe(true);
    expect(matchesMeetingSearch({ title: "Q3 Board Meeting" }, "AGM")).toBe(false);
    expect(matchesMeetingSearch({ title: "Anything" }, "")).toBe(true);
  });

  it("finds a joinable link in a location", () => {
    expect(meetingLink("https://zoom.us/j/123")).toBe("https://zoom.us/j/123");
    expect(meetingLink("Virtual (Zoom) https://meet.example.com/abc-def")).toBe("https://meet.example.com/abc-def");
    expect(meetingLink("Virtual (Zoom)")).toBeNull();
    expect(meetingLink("Board room, 4th floor")).toBeNull();
  });

  it("colours the badge by status, and past meetings as Completed", () => {
    expect(meetingBadge("confirmed", false)).toEqual({ label: "Confirmed", variant: "success" });
    expect(meetingBadge("cancelled", false)).toEqual({ label: "Cancelled", variant: "destructive" });
    expect(meetingBadge("pending", false)).toEqual({ label: "Pending", variant: "warning" });
    expect(meetingBadge("whatever", false)).toEqual({ label: "Pending", variant: "warning" });
    expect(meetingBadge("confirmed", true).label).toBe("Completed");
    expect(meetingBadge("cancelled", true)).toEqual({ label: "Cancelled", variant: "destructive" });
  });

  it("formats the range as 'MMMM d, yyyy • h:mm a - h:mm a' in local time", () => {
    expect(formatMeetingRange(new Date(2026, 6, 4, 9, 5), new Date(2026, 6, 4, 11, 5))).toBe("July 4, 2026 • 9:05 AM - 11:05 AM");
    expect(formatMeetingRange(new Date(2026, 11, 31, 23, 0), new Date(2027, 0, 1, 1, 0))).toBe("December 31, 2026 • 11:00 PM - 1:00 AM");
  });
});
