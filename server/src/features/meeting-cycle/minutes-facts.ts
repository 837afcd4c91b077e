// The facts of a meeting's record that minutes must state, and the check that a text still states each of them.
// The check is literal on purpose: a secretary can see for themselves that every name, number, outcome and date in
// the text is the record's, and an AI that rewords cannot quietly change one.
import { attendanceStatusLabels, quorumSentence } from "../../../../shared/meeting-record";
import { minutesDate, minutesTime, outcomeWord } from "./minutes-draft";
import type { MinutesRecord } from "./minutes-record.data";

/**
 * A fact: a text that must appear as a whole word run (as often as the record has it, so one of two equal tallies
 * cannot change unseen), or a person who must be named under their attendance label.
 */
export type Fact = { kind: "text"; text: string } | { kind: "attendance"; name: string; label: string };

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
  const { meeting, attendance } = record;
  text(meeting.title);
  text(record.company);
  text(meeting.location);
  text(minutesDate(meeting.startsAt));
  text(minutesTime(meeting.startsAt));
  text(minutesTime(meeting.endsAt));
  if (record.chair) person(record.chair, chairLabel);
  for (const attendee of attendance.attendees) person(attendee.name, attendanceStatusLabels[attendee.status]);
  for (const guest of attendance.guests) person(guest.name, guestLabel);
  text(quorumSentence(attendance.quorum));
  for (const item of record.items) {
    text(item.title);
    if (item.presenter) text(item.presenter);
    item.papers.forEach(text);
    for (const resolution of item.resolutions) {
      text(resolution.title);
      // What the board resolved is the record itself: its wording is never the AI's to change.
      text(resolution.description);
      text(outcomeWord(resolution));
      if (resolution.tally && resolution.status !== "pending") {
        text(`${resolution.tally.yes} yes`);
        text(`${resolution.tally.no} no`);
        text(`${resolution.tally.abstain} abstain`);
      }
    }
  }
  for (const item of record.actionItems) {
    text(item.title);
    text(item.owner);
    text(minutesDate(item.dueDate));
  }
  return facts;
}

/** How a fact is named to the secretary. */
export function factWords(fact: Fact): string {
  return fact.kind === "text" ? fact.text : `${fact.label}: ${fact.name}`;
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

/** The first fact `text` no longer states, or null when it states them all. */
export function missingFact(text: string, facts: readonly Fact[]): Fact | null {
  const needed = new Map<string, number>();
  for (const fact of facts) if (fact.kind === "text") needed.set(fact.text, (needed.get(fact.text) ?? 0) + 1);
  for (const fact of facts) {
    if (fact.kind === "text" ? occurrences(text, fact.text) < needed.get(fact.text)! : !namedUnder(text, fact.name, fact.label)) {
      return fact;
    }
  }
  return null;
}
