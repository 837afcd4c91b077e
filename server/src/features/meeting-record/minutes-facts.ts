// The facts of a meeting's record that minutes must state, and the check that a text still states each of them.
// The check is literal on purpose: a secretary can see for themselves that every name, number, outcome and date in
// the text is the record's, and an AI that rewords cannot quietly change one.
import { attendanceStatusLabels, quorumSentence } from "../../../../shared/meeting-record";
import { formatUtcDate } from "../../clock";
import { closedWords, decidedWords, minutesTime, outcomeWord, purposeWords, scheduledEndWords } from "./minutes-draft";
import type { MinutesRecord, MinutesResolution } from "./minutes-record.data";

/**
 * A fact: a text that must appear as a whole word run (as often as the record has it, so one of two equal tallies
 * cannot change unseen), a person who must be named under their attendance label, or a text that must be stated in
 * the place of what it belongs to (a resolution's outcome in its own section, an action item's owner on its own
 * line), so two of them cannot swap unseen.
 */
export type Fact =
  { kind: "text"; text: string } | { kind: "attendance"; name: string; label: string } | { kind: "placed"; text: string; place: string };

const guestLabel = "Guests";
const chairLabel = "Chair";

/** The facts of a record, in the order the minutes state them (the first one missing is the one named). */
export function factsOf(record: MinutesRecord): Fact[] {
  const facts: Fact[] = [];
  const text = (value: string) => {
    if (value.trim() !== "") facts.push({ kind: "text", text: value.trim() });
  };
  const person = (name: string, label: string) => {
    if (name.trim() !== "") facts.push({ kind: "attendance", name: name.trim(), label });
  };
  const placed = (place: string, value: string) => {
    if (place.trim() !== "" && value.trim() !== "") facts.push({ kind: "placed", text: value.trim(), place: place.trim() });
  };
  const resolutionFacts = (resolution: MinutesResolution) => {
    text(resolution.title);
    // What the board resolved is the record itself: its wording is never the AI's to change.
    text(resolution.description);
    placed(resolution.title, outcomeWord(resolution));
    const where = decidedWords(resolution);
    if (resolution.tally && where && resolution.decided) {
      placed(resolution.title, where);
      // Every date the minutes write is counted too, so the meeting's own date cannot change behind an equal one.
      if (resolution.decided.by === "otherMeeting") text(formatUtcDate(resolution.decided.meetingDay));
      if (resolution.decided.by === "online") text(formatUtcDate(resolution.decided.decidedAt));
      placed(resolution.title, `${resolution.tally.yes} yes`);
      placed(resolution.title, `${resolution.tally.no} no`);
      placed(resolution.title, `${resolution.tally.abstain} abstain`);
    }
  };
  const { meeting, attendance } = record;
  text(meeting.title);
  text(record.company);
  text(meeting.location);
  text(formatUtcDate(meeting.startsAt));
  text(minutesTime(meeting.startsAt));
  // A time of close recorded, or else the schedule named as such: the AI cannot make the one pass for the other.
  text(closedWords(meeting) ?? scheduledEndWords(meeting));
  if (record.chair) person(record.chair, chairLabel);
  for (const attendee of attendance.attendees) person(attendee.name, attendanceStatusLabels[attendee.status]);
  for (const guest of attendance.guests) person(guest.name, guestLabel);
  text(quorumSentence(attendance.quorum));
  for (const item of record.items) {
    text(item.title);
    // Whether the board was asked to decide, discuss or note an item is the record's, not the AI's to change.
    placed(item.title, purposeWords(item.purpose));
    if (item.presenter) text(item.presenter);
    item.papers.forEach(text);
    item.resolutions.forEach(resolutionFacts);
  }
  // Decisions taken at the meeting on resolutions not on its agenda are the record as much as the agenda's.
  record.otherDecisions.forEach(resolutionFacts);
  // So are the written resolutions noted, each with the day it took effect.
  for (const resolution of record.writtenResolutions) {
    text(resolution.title);
    placed(resolution.title, formatUtcDate(resolution.effectiveAt));
    text(formatUtcDate(resolution.effectiveAt));
  }
  for (const item of record.actionItems) {
    text(item.title);
    placed(item.title, item.owner);
    placed(item.title, formatUtcDate(item.dueDate));
    text(formatUtcDate(item.dueDate));
  }
  return facts;
}

/** How a fact is named to the secretary. */
export function factWords(fact: Fact): string {
  if (fact.kind === "text") return fact.text;
  return fact.kind === "attendance" ? `${fact.label}: ${fact.name}` : `${fact.place}: ${fact.text}`;
}

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** `value` as a whole run: not inside a longer word or number ("1 no" is not in "11 no"). */
const wholeRun = (value: string, flags = "gu") => new RegExp(`(?<![\\p{L}\\p{N}])${escape(value)}(?![\\p{L}\\p{N}])`, flags);

function occurrences(text: string, value: string): number {
  return [...text.matchAll(wholeRun(value))].length;
}

// Longest first, so "Present by video" is never read as "Present".
const labelPattern = /(?<![\p{L}\p{N}])(present by video|present|apologies|absent|guests?|chair)(?![\p{L}\p{N}])/giu;
const normalLabel = (label: string) => {
  const lower = label.toLowerCase();
  return lower === "guest" ? "guests" : lower;
};

/**
 * True when `name` is written somewhere under `label`: the nearest attendance label before the name, in the same
 * paragraph, is that label ("- Apologies: Obi Observer", "Apologies were sent by Obi Observer").
 */
function namedUnder(text: string, name: string, label: string): boolean {
  const wanted = normalLabel(label);
  for (const match of text.matchAll(wholeRun(name))) {
    const paragraphStart = text.lastIndexOf("\n\n", match.index) + 1;
    const before = text.slice(paragraphStart, match.index);
    const labels = [...before.matchAll(labelPattern)];
    const nearest = labels[labels.length - 1]?.[1];
    if (nearest && normalLabel(nearest) === wanted) return true;
  }
  return false;
}

const heading = /^\s{0,3}#{1,6}\s/;
const listItem = /^\s*(?:[-*+]|\d+[.)])\s/;
const indentOf = (line: string) => /^\s*/.exec(line)![0].length;

/**
 * The places a text gives `anchor`: for each line naming it, a heading's whole section (to the next heading), or
 * else that line with what continues it (up to a blank line, a heading or the next list item as far out).
 */
function placesOf(text: string, anchor: string): string[] {
  const lines = text.split("\n");
  const places: string[] = [];
  lines.forEach((line, index) => {
    if (!wholeRun(anchor, "u").test(line)) return;
    const isHeading = heading.test(line);
    const indent = indentOf(line);
    let end = index + 1;
    for (; end < lines.length; end += 1) {
      const next = lines[end]!;
      if (heading.test(next)) break;
      if (isHeading) continue;
      if (next.trim() === "") break;
      if (listItem.test(next) && indentOf(next) <= indent) break;
    }
    places.push(lines.slice(index, end).join("\n"));
  });
  return places;
}

/** True when `value` is stated in one of the places of `place`. */
function statedIn(text: string, place: string, value: string): boolean {
  return placesOf(text, place).some((section) => occurrences(section, value) > 0);
}

/** Whether `text` still states `fact`, counting text facts against how often the record has each. */
function states(text: string, fact: Fact, needed: ReadonlyMap<string, number>): boolean {
  if (fact.kind === "text") return occurrences(text, fact.text) >= needed.get(fact.text)!;
  if (fact.kind === "attendance") return namedUnder(text, fact.name, fact.label);
  return statedIn(text, fact.place, fact.text);
}

/** The first fact `text` no longer states, or null when it states them all. */
export function missingFact(text: string, facts: readonly Fact[]): Fact | null {
  const needed = new Map<string, number>();
  for (const fact of facts) if (fact.kind === "text") needed.set(fact.text, (needed.get(fact.text) ?? 0) + 1);
  return facts.find((fact) => !states(text, fact, needed)) ?? null;
}
