// Minutes written from a meeting's record, as Markdown. Pure: the same record gives the same text, byte for byte,
// so a redraft changes only what the record changed.
import { agendaPurposeLabels, type AgendaPurpose } from "../../../../shared/meeting-model";
import { attendanceStatusLabels, attendanceStatuses, quorumSentence } from "../../../../shared/meeting-record";
import type { Tally } from "../../../../shared/resolutions";
import { formatUtcDate } from "../../clock";
import type { MinutesRecord, MinutesResolution } from "./minutes-record.data";

const timeFormat = new Intl.DateTimeFormat("en-GB", { timeStyle: "short", timeZone: "UTC" });

/** A time of day in UTC ("10:00 UTC"): read by directors in any zone. */
export function minutesTime(date: Date): string {
  return `${timeFormat.format(date)} UTC`;
}

/** "3 yes, 1 no, 0 abstain". */
export function tallyWords(tally: Tally): string {
  return `${tally.yes} yes, ${tally.no} no, ${tally.abstain} abstain`;
}

/** The outcome word of a resolution: Approved, Rejected, or Not decided while it is pending. */
export function outcomeWord(resolution: MinutesResolution): string {
  if (resolution.status === "pending" || !resolution.tally) return "Not decided";
  return resolution.status === "approved" ? "Approved" : "Rejected";
}

/**
 * Where a decided resolution was decided, as the minutes write it after its outcome word ("at this meeting by show
 * of hands", "by show of hands at the meeting of 3 Jun 2026", "by online vote on 5 Jun 2026"); null while pending.
 */
export function decidedWords(resolution: MinutesResolution): string | null {
  if (outcomeWord(resolution) === "Not decided" || !resolution.decided) return null;
  const { decided } = resolution;
  if (decided.by === "thisMeeting") return "at this meeting by show of hands";
  if (decided.by === "otherMeeting") return `by show of hands at the meeting of ${formatUtcDate(decided.meetingDay)}`;
  return `by online vote on ${formatUtcDate(decided.decidedAt)}`;
}

/** "Approved at this meeting by show of hands: 3 yes, 1 no, 0 abstain", or "Not decided". */
function outcomeLine(resolution: MinutesResolution): string {
  const word = outcomeWord(resolution);
  const where = decidedWords(resolution);
  return resolution.tally && where ? `${word} ${where}: ${tallyWords(resolution.tally)}` : word;
}

const sameUtcDay = (one: Date, other: Date) => one.toISOString().slice(0, 10) === other.toISOString().slice(0, 10);

/**
 * When the meeting closed, as recorded ("11:47 UTC"; with its day when that is not the day it started), or null when
 * no time of close was recorded.
 */
export function closedWords(meeting: MinutesRecord["meeting"]): string | null {
  if (!meeting.closedAt) return null;
  const time = minutesTime(meeting.closedAt);
  return sameUtcDay(meeting.closedAt, meeting.startsAt) ? time : `${formatUtcDate(meeting.closedAt)}, ${time}`;
}

/** The scheduled end, said as such: never passed off as the time the meeting closed. */
export function scheduledEndWords(meeting: MinutesRecord["meeting"]): string {
  return `scheduled to end at ${minutesTime(meeting.endsAt)}`;
}

const list = (names: readonly string[]) => (names.length === 0 ? "none" : names.join(", "));

/** The attendance lines: each status with its people in name order, then the guests. */
function attendanceLines(record: MinutesRecord): string[] {
  const lines = attendanceStatuses.map((status) => {
    const names = record.attendance.attendees.filter((attendee) => attendee.status === status).map((attendee) => attendee.name);
    return `- ${attendanceStatusLabels[status]}: ${list(names)}`;
  });
  lines.push(`- Guests: ${list(record.attendance.guests.map((guest) => guest.name))}`);
  return lines;
}

/** A resolution under a heading of `level` (its section holds its wording and outcome, where the facts check looks). */
function resolutionBlock(resolution: MinutesResolution, level = 4): string[] {
  const heading = `${"#".repeat(level)} Resolution: ${resolution.title} (${resolution.type})`;
  return ["", heading, "", resolution.description.trim(), "", outcomeLine(resolution)];
}

/** "for decision": what an agenda item is for, as its heading in the minutes says it ("3. Budget (for decision)"). */
export function purposeWords(purpose: AgendaPurpose): string {
  return agendaPurposeLabels[purpose].toLowerCase();
}

function agendaBlock(record: MinutesRecord): string[] {
  if (record.items.length === 0) return ["", "No agenda items were recorded."];
  return record.items.flatMap((item, index) => [
    "",
    `### ${index + 1}. ${item.title} (${purposeWords(item.purpose)})`,
    "",
    `- Presenter: ${item.presenter ?? "none"}`,
    `- Papers: ${list(item.papers)}`,
    ...item.resolutions.flatMap((resolution) => resolutionBlock(resolution)),
  ]);
}

const otherDecisionsHeading = "Other decisions taken at the meeting";

/** Decisions a show of hands took at the meeting on resolutions not on its agenda; nothing when there were none. */
function otherDecisionsBlock(record: MinutesRecord): string[] {
  if (record.otherDecisions.length === 0) return [];
  return ["", `## ${otherDecisionsHeading}`, ...record.otherDecisions.flatMap((resolution) => resolutionBlock(resolution, 3))];
}

export const writtenResolutionsHeading = "Written resolutions noted";

/** The written resolutions passed since the previous meeting, noted under their own heading; nothing when none was. */
function writtenResolutionsBlock(record: MinutesRecord): string[] {
  if (record.writtenResolutions.length === 0) return [];
  return [
    "",
    `## ${writtenResolutionsHeading}`,
    "",
    "The board noted these resolutions, passed by the directors in writing since the previous meeting:",
    "",
    ...record.writtenResolutions.map((resolution) => `- ${resolution.title}: effective ${formatUtcDate(resolution.effectiveAt)}`),
  ];
}

function actionItemLines(record: MinutesRecord): string[] {
  if (record.actionItems.length === 0) return ["No action items."];
  return record.actionItems.map((item) => `- ${item.title}: ${item.owner}, due ${formatUtcDate(item.dueDate)}`);
}

/** The minutes of a meeting, in Markdown, from its record. */
export function draftMinutesText(record: MinutesRecord): string {
  const { meeting, attendance } = record;
  const quorum = quorumSentence(attendance.quorum);
  const closed = closedWords(meeting);
  const lines = [
    `# Minutes of ${meeting.title}`,
    "",
    record.company,
    "",
    `- Date: ${formatUtcDate(meeting.startsAt)}`,
    `- Started: ${minutesTime(meeting.startsAt)}`,
    closed ? `- Ended: ${closed}` : `- Closed: not recorded (${scheduledEndWords(meeting)})`,
    `- Location: ${meeting.location}`,
    `- Chair: ${record.chair ?? "not recorded"}`,
    "",
    "## Attendance",
    "",
    ...attendanceLines(record),
    "",
    attendance.quorum.quorate ? `${quorum}.` : `${quorum}. The meeting was not quorate.`,
    "",
    "## Agenda",
    ...agendaBlock(record),
    ...otherDecisionsBlock(record),
    ...writtenResolutionsBlock(record),
    "",
    "## Action items",
    "",
    ...actionItemLines(record),
    "",
    closed ? `The meeting closed at ${closed}.` : "The time the meeting closed was not recorded.",
  ];
  return `${lines.join("\n")}\n`;
}
