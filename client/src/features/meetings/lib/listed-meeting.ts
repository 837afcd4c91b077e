import type { DocumentObject } from "@shared/documents";
import { meetingCategory, meetingEndFrom, meetingNamePrefix } from "@shared/meeting-model";
import type { ListedMeeting } from "@shared/meetings";

/**
 * A meeting as listed: what a meeting row shows, whichever list it came from
 * (the documents list on /meetings or the upcoming endpoint on the dashboard).
 */
export interface MeetingSummary {
  id: number;
  title: string;
  date: Date;
  endDate: Date;
  location: string;
  status: string;
  participantCount: number;
  /** On the dashboard's list: one of its agenda papers changed since the viewer read it. */
  papersChanged?: boolean;
}

/** A meeting read from its document: the summary plus what the detail page shows. */
export interface MeetingDetails extends MeetingSummary {
  participants: string[];
  agenda: string;
}

/** A row of GET /api/companies/:id/meetings/upcoming (ISO dates) as a summary. */
export function fromListedMeeting(meeting: ListedMeeting): MeetingSummary {
  return { ...meeting, date: new Date(meeting.date), endDate: new Date(meeting.endDate) };
}

export const isMeetingDocument = (document: Pick<DocumentObject, "category">) => document.category === meetingCategory;

/** A company's meeting documents (GET /api/documents?category=Meeting) as summaries. */
export function meetingsFromDocuments(documents: DocumentObject[]): MeetingSummary[] {
  return documents.map((document) => toMeetingSummary(document));
}

const validDate = (value: unknown): Date | null => {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/**
 * A meeting document's content, read defensively: the title comes from the content, else from the
 * name without 'Meeting: '. Content that does not parse still gives a row: date now,
 * location 'Not specified', status pending, 0 participants.
 */
export function toMeetingSummary(document: Pick<DocumentObject, "id" | "name" | "content">, now: Date = new Date()): MeetingDetails {
  const nameTitle = document.name.startsWith(meetingNamePrefix) ? document.name.slice(meetingNamePrefix.length) : document.name;
  let content: Record<string, unknown> = {};
  try {
    const parsed: unknown = document.content ? JSON.parse(document.content) : null;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) content = parsed as Record<string, unknown>;
  } catch {
    // The fallback below.
  }
  const date = validDate(content.date) ?? now;
  const participants = Array.isArray(content.participants) ? content.participants.map(String) : [];
  return {
    id: document.id,
    title: typeof content.title === "string" && content.title.trim() ? content.title : nameTitle,
    date,
    endDate: validDate(content.endDate) ?? meetingEndFrom(date),
    location: typeof content.location === "string" && content.location.trim() ? content.location : "Not specified",
    status: typeof content.status === "string" && content.status ? content.status : "pending",
    participantCount: participants.length,
    participants,
    agenda: typeof content.agenda === "string" ? content.agenda : "",
  };
}

/** A meeting has started once its date is not after now. */
export function hasStarted(meeting: Pick<MeetingSummary, "date">, now: Date): boolean {
  return meeting.date.getTime() <= now.getTime();
}

/**
 * Upcoming: not started yet (decided by the date against now) and not cancelled. A cancelled meeting will not
 * take place, so it is listed with the past ones.
 */
export function isUpcoming(meeting: Pick<MeetingSummary, "date"> & { status?: string }, now: Date): boolean {
  return !hasStarted(meeting, now) && meeting.status !== "cancelled";
}

/** Upcoming soonest first; past (and cancelled) most recent first. */
export function splitMeetings<T extends Pick<MeetingSummary, "date"> & { status?: string }>(
  meetings: readonly T[],
  now: Date,
): { upcoming: T[]; past: T[] } {
  const upcoming = meetings.filter((meeting) => isUpcoming(meeting, now)).sort((a, b) => a.date.getTime() - b.date.getTime());
  const past = meetings.filter((meeting) => !isUpcoming(meeting, now)).sort((a, b) => b.date.getTime() - a.date.getTime());
  return { upcoming, past };
}

/** Case-insensitive search on the title. */
export function matchesMeetingSearch(meeting: Pick<MeetingSummary, "title">, search: string): boolean {
  const needle = search.trim().toLowerCase();
  return needle === "" || meeting.title.toLowerCase().includes(needle);
}

/** The first http(s) URL in a location ("Virtual (Zoom) https://zoom.us/j/1" → the link), or null. */
export function meetingLink(location: string): string | null {
  const match = /https?:\/\/[^\s<>"')]+/i.exec(location);
  if (!match) return null;
  try {
    return new URL(match[0]).toString();
  } catch {
    return null;
  }
}
