import { buildIcs, escapeIcsText, foldIcsLine, icsDateTime } from "./ics";

describe("ics", () => {
  it("writes UTC date-times in the basic format", () => {
    expect(icsDateTime(new Date("2026-07-15T13:30:05.123Z"))).toBe("20260715T133005Z");
  });

  it("escapes TEXT values", () => {
    expect(escapeIcsText("a\\b; c, d\r\ne\nf")).toBe("a\\\\b\\; c\\, d\\ne\\nf");
  });

  it("folds lines at 75 octets without splitting a UTF-8 character", () => {
    const line = `DESCRIPTION:${"é".repeat(100)}`;
    const folded = foldIcsLine(line);
    const parts = folded.split("\r\n");
    expect(parts.length).toBeGreaterThan(1);
    expect(Buffer.byteLength(parts[0]!)).toBeLessThanOrEqual(75);
    for (const part of parts.slice(1)) {
      expect(part.startsWith(" ")).toBe(true);
      expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
    }
    expect(parts.map((part, index) => (index === 0 ? part : part.slice(1))).join("")).toBe(line);
    expect(foldIcsLine("SHORT:line")).toBe("SHORT:line");
  });

  it("builds a calendar with one event and CRLF line ends", () => {
    const text = buildIcs({
      uid: "meeting-7@quorum",
      start: new Date("2026-01-02T10:00:00Z"),
      end: new Date("2026-01-02T12:00:00Z"),
      stamp: new Date("2026-01-01T00:00:00Z"),
      summary: "Board",
      location: "Room 1",
      description: "",
    });
    expect(text.split("\r\n")).toEqual([
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Quorum//Board meetings//EN",
      "CALSCALE:GREGORIAN",
      "METHOD:PUBLISH",
      "BEGIN:VEVENT",
      "UID:meeting-7@quorum",
      "DTSTAMP:20260101T000000Z",
      "DTSTART:20260102T100000Z",
      "DTEND:20260102T120000Z",
      "SUMMARY:Board",
      "LOCATION:Room 1",
      "DESCRIPTION:",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ]);
  });
});
