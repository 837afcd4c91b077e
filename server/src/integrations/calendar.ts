import { createEvents, type DateTime, type EventAttributes } from "ics";

/**
 * The one calendar writer: every .ics the app serves (a meeting's, a company's compliance calendar, the
 * subscribed feed) is written here with the `ics` library, then its lines are re-folded so the output is
 * RFC 5545 whatever the text: CRLF line ends, no line longer than 75 octets (the library counts characters,
 * so a line of accented or CJK text would be too long), times in UTC ("...Z"), all-day events as DATE values.
 */
interface EventDetails {
  /** Stable across versions of the calendar, so a subscribed calendar updates the event instead of adding one. */
  uid: string;
  summary: string;
  location?: string;
  description?: string;
  /** A deadline rather than an appointment: shown, but never makes anyone busy. */
  free?: boolean;
  /** A display alarm this many days before the start. */
  alarmDaysBefore?: number;
  /** STATUS: a cancelled event stays in a feed so subscribed calendars strike it rather than keep it. */
  status?: "TENTATIVE" | "CONFIRMED" | "CANCELLED";
  /** SEQUENCE: how many times the event was revised; a calendar app keeps the copy with the highest. */
  sequence?: number;
}

/** An appointment from `start` up to `end`. */
export interface TimedEvent extends EventDetails {
  start: Date;
  end: Date;
  day?: never;
}

/** An all-day event on the UTC calendar day holding `day` (a due date, which has no time of day). */
export interface AllDayEvent extends EventDetails {
  day: Date;
  start?: never;
  end?: never;
}

export type CalendarEvent = TimedEvent | AllDayEvent;

export interface CalendarOptions {
  /** When the calendar was written (each event's DTSTAMP). */
  stamp: Date;
  /** The calendar's name in a calendar app (X-WR-CALNAME). */
  name?: string;
}

const productId = "-//Quorum//Board meetings//EN";

/** Newlines of any kind as \n, which the library escapes; a lone CR would otherwise end the line. */
const text = (value: string) => value.replace(/\r\n?/g, "\n");

/** RFC 5545 folding: lines longer than 75 octets are split with CRLF + space, never inside a UTF-8 character. */
export function foldIcsLine(line: string): string {
  const parts: string[] = [];
  let current = "";
  let currentOctets = 0;
  // The first line may hold 75 octets; continuation lines start with a space, leaving 74.
  let limit = 75;
  for (const char of line) {
    const octets = Buffer.byteLength(char, "utf8");
    if (currentOctets + octets > limit) {
      parts.push(current);
      current = "";
      currentOctets = 0;
      limit = 74;
    }
    current += char;
    currentOctets += octets;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

/** Undoes any folding (CRLF followed by a space or a tab) and folds every line again by octets. */
export function refoldIcs(ics: string): string {
  const lines = ics.replace(/\r\n[ \t]/g, "").split("\r\n");
  if (lines.at(-1) === "") lines.pop();
  return `${lines.map(foldIcsLine).join("\r\n")}\r\n`;
}

/**
 * An RFC 5545 UTC date-time ("19650503T100000Z"). Written here rather than by the library, which refuses a
 * timestamp before 1970 (a negative number); it writes a string as it is.
 */
const utcDateTime = (date: Date) => `${date.toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;

/** The UTC calendar day holding `date`, as the library's [year, month, day] (written as a DATE value). */
const utcDay = (date: Date): [number, number, number] => [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];

const dayMs = 24 * 60 * 60 * 1000;

function when(event: CalendarEvent): Pick<EventAttributes, "start" | "startInputType" | "startOutputType"> & { end: DateTime } {
  // An all-day event ends (exclusively) on the next day.
  if (event.day) return { start: utcDay(event.day), end: utcDay(new Date(event.day.getTime() + dayMs)) };
  return { start: utcDateTime(event.start), startInputType: "utc", startOutputType: "utc", end: utcDateTime(event.end) };
}

function attributes(event: CalendarEvent, stamp: Date): EventAttributes {
  const attributes: EventAttributes & { timestamp: DateTime } = {
    uid: event.uid,
    ...when(event),
    title: text(event.summary),
    // DTSTAMP: the library's own default is the wall clock; ours is the injected one.
    timestamp: utcDateTime(stamp),
  };
  if (event.location) attributes.location = text(event.location);
  if (event.description) attributes.description = text(event.description);
  if (event.status) attributes.status = event.status;
  if (event.sequence !== undefined) attributes.sequence = event.sequence;
  if (event.free) {
    attributes.transp = "TRANSPARENT";
    attributes.busyStatus = "FREE";
  }
  if (event.alarmDaysBefore !== undefined) {
    // In hours: the library writes days as "-P7DT", which RFC 5545 does not allow (a "T" needs a time after it).
    attributes.alarms = [
      { action: "display", description: text(event.summary), trigger: { hours: event.alarmDaysBefore * 24, before: true } },
    ];
  }
  return attributes;
}

/** A VCALENDAR holding `events` (possibly none), as RFC 5545 text. */
export function buildCalendar(events: readonly CalendarEvent[], options: CalendarOptions): string {
  const header = { productId, method: "PUBLISH", ...(options.name ? { calName: text(options.name) } : {}) };
  const { error, value } = createEvents(
    events.map((event) => attributes(event, options.stamp)),
    header,
  );
  if (error || value == null) throw error ?? new Error("the calendar could not be written");
  return refoldIcs(value);
}
