import { buildCalendar, foldIcsLine, refoldIcs, type CalendarEvent } from "./calendar";

/** A tiny RFC 5545 reader: unfolds lines, then reads each content line as name, parameters and value. */
function parseIcs(text: string) {
  expect(text.endsWith("\r\n")).toBe(true);
  // Every line break is CRLF: no bare LF or CR anywhere.
  expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
  const physical = text.slice(0, -2).split("\r\n");
  for (const line of physical) expect(Buffer.byteLength(line, "utf8"), line).toBeLessThanOrEqual(75);
  const lines = text
    .slice(0, -2)
    .replace(/\r\n[ \t]/g, "")
    .split("\r\n");
  const components: {
    name: string;
    properties: Record<string, string>;
    children: { name: string; properties: Record<string, string> }[];
  }[] = [];
  const stack: { name: string; properties: Record<string, string>; children: { name: string; properties: Record<string, string> }[] }[] =
    [];
  for (const line of lines) {
    const match = /^([A-Z][A-Z0-9-]*)((?:;[^:]*)?):(.*)$/.exec(line);
    expect(match, `not a content line: ${line}`).not.toBeNull();
    const [, name, , value] = match!;
    if (name === "BEGIN") {
      const component = { name: value!, properties: {}, children: [] };
      stack.at(-1)?.children.push(component);
      stack.push(component);
    } else if (name === "END") {
      const done = stack.pop();
      expect(done?.name).toBe(value);
      if (stack.length === 0) components.push(done!);
    } else {
      stack.at(-1)!.properties[name!] = value!;
    }
  }
  expect(stack).toEqual([]);
  return components;
}

/** TEXT as written, back to the original. */
const unescape = (value: string) => value.replace(/\\([\\;,nN])/g, (_, char: string) => (char === "n" || char === "N" ? "\n" : char));

const board: CalendarEvent = {
  uid: "meeting-7@quorum",
  start: new Date("2026-01-02T10:00:00Z"),
  end: new Date("2026-01-02T12:00:00Z"),
  summary: "Board",
  location: "Room 1",
  description: "",
};
const stamp = new Date("2026-01-01T00:00:00Z");

describe("the calendar writer", () => {
  it("writes one event in UTC with CRLF line ends", () => {
    const [calendar] = parseIcs(buildCalendar([board], { stamp }));
    expect(calendar!.name).toBe("VCALENDAR");
    expect(calendar!.properties).toMatchObject({
      VERSION: "2.0",
      PRODID: "-//Quorum//Board meetings//EN",
      CALSCALE: "GREGORIAN",
      METHOD: "PUBLISH",
    });
    expect(calendar!.children).toHaveLength(1);
    expect(calendar!.children[0]).toMatchObject({
      name: "VEVENT",
      properties: {
        UID: "meeting-7@quorum",
        DTSTAMP: "20260101T000000Z",
        DTSTART: "20260102T100000Z",
        DTEND: "20260102T120000Z",
        SUMMARY: "Board",
        LOCATION: "Room 1",
      },
    });
  });

  it("writes milliseconds away and every time in UTC", () => {
    const text = buildCalendar([{ ...board, start: new Date("2026-07-15T13:30:05.123Z"), end: new Date("2026-07-15T15:30:05.123Z") }], {
      stamp,
    });
    expect(text).toContain("\r\nDTSTART:20260715T133005Z\r\n");
    for (const line of text.split("\r\n").filter((line) => /^(DTSTART|DTEND|DTSTAMP)/.test(line))) expect(line).toMatch(/:\d{8}T\d{6}Z$/);
  });

  it("escapes TEXT values, whatever the newlines", () => {
    const text = buildCalendar([{ ...board, description: "a\\b; c, d\r\ne\nf\rg" }], { stamp });
    expect(text).toContain("DESCRIPTION:a\\\\b\\; c\\, d\\ne\\nf\\ng\r\n");
    const [calendar] = parseIcs(text);
    expect(unescape(calendar!.children[0]!.properties.DESCRIPTION!)).toBe("a\\b; c, d\ne\nf\ng");
  });

  it("folds at 75 octets, not characters, and the text reads back whole", () => {
    const title = "Réunion du conseil — 2027 ✓ 董事会 ".repeat(4).trim();
    const text = buildCalendar([{ ...board, summary: title, location: "Salle 董事会", description: "é".repeat(200) }], {
      stamp,
      name: "Conseil d'administration — 董事会",
    });
    const physical = text.split("\r\n");
    expect(physical.some((line) => line.startsWith(" "))).toBe(true);
    expect(physical.some((line) => line.startsWith("\t"))).toBe(false);
    const [calendar] = parseIcs(text);
    expect(calendar!.properties["X-WR-CALNAME"]).toBe("Conseil d'administration — 董事会");
    const event = calendar!.children[0]!.properties;
    expect(unescape(event.SUMMARY!)).toBe(title);
    expect(unescape(event.DESCRIPTION!)).toBe("é".repeat(200));
  });

  it("writes an empty calendar, alarms and free time", () => {
    expect(parseIcs(buildCalendar([], { stamp }))[0]!.children).toEqual([]);
    const [calendar] = parseIcs(buildCalendar([{ ...board, free: true, alarmDaysBefore: 7 }], { stamp }));
    const event = calendar!.children[0]!;
    expect(event.properties.TRANSP).toBe("TRANSPARENT");
    expect(event).toMatchObject({ children: [{ name: "VALARM", properties: { ACTION: "DISPLAY", TRIGGER: "-PT168H" } }] });
  });
});

describe("folding", () => {
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

  it("refolds a calendar folded by characters", () => {
    const long = `SUMMARY:${"董".repeat(80)}`;
    const byCharacters = `BEGIN:VCALENDAR\r\n${long.slice(0, 75)}\r\n\t${long.slice(75)}\r\nEND:VCALENDAR\r\n`;
    const refolded = refoldIcs(byCharacters);
    for (const line of refolded.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(refolded.replace(/\r\n /g, "")).toBe(`BEGIN:VCALENDAR\r\n${long}\r\nEND:VCALENDAR\r\n`);
  });
});
