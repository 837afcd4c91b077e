// Minutes written from a meeting's record, as Markdown. Pure: the same record gives the same text, byte for byte,
// so a redraft changes only what the record changed.
import { attendanceStatusLabels, attendanceStatuses, quorumSentence } from "../../../../shared/meeting-record";
import type { Tally } from "../../../../shared/resolutions";
import type { MinutesRecord, MinutesResolution } from "./minutes-record.data";

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });
const timeFormat = new Intl.DateTimeFormat("en-GB", { timeStyle: "short", timeZone: "UTC" });

/** A day as the minutes write it ("1 Dec 2026"); a bare calendar date ("2026-12-15") is that day. */
export function minutesDate(date: Date | string): string {
  return dateFormat.format(typeof date === "string" ? new Date(date) : date);
}

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

/** "Approved: 3 yes, 1 no, 0 abstain", or "Not decided". */
function outcomeLine(resolution: MinutesResolution): string {
  const word = outcomeWord(resolution);
  return resolution.tally && resolution.status !== "pending" ? `${word}: ${tallyWords(resolution.tally)}` : word;
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

function resolutionBlock(resolution: MinutesResolution): string[] {
  return ["", `#### Resolution: ${resolution.title} (${resolution.type})`, "", resolution.description.trim(), "", outcomeLine(resolution)];
}

function agendaBlock(record: MinutesRecord): string[] {
  if (record.items.length === 0) return ["", "No agenda items were recorded."];
  return record.items.flatMap((item, index) => [
    "",
    `### ${index + 1}. ${item.title}`,
    "",
    `- Presenter: ${item.presenter ?? "none"}`,
    `- Papers: ${list(item.papers)}`,
    ...item.resolutions.flatMap(resolutionBlock),
  ]);
}

function actionItemLines(record: MinutesRecord): string[] {
  if (record.actionItems.length === 0) return ["No action items."];
  return record.actionItems.map((item) => `- ${item.title}: ${item.owner}, due ${minutesDate(item.dueDate)}`);
}

/** The minutes of a meeting, in Markdown, from its record. */
export function draftMinutesText(record: MinutesRecord): string {
  const { meeting, attendance } = record;
  const quorum = quorumSentence(attendance.quorum);
  const lines = [
    `# Minutes of ${meeting.title}`,
    "",
    record.company,
    "",
    `- Date: ${minutesDate(meeting.startsAt)}`,
    `- Started: ${minutesTime(meeting.startsAt)}`,
    `- Ended: ${minutesTime(meeting.endsAt)}`,
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
    "",
    "## Action items",
    "",
    ...actionItemLines(record),
    "",
    `The meeting closed at ${minutesTime(meeting.endsAt)}.`,
  ];
  return `${lines.join("\n")}\n`;
}
