import type { AgendaItem } from "../../../../shared/meetings";
import { formatUtcDate } from "../../clock";

/**
 * The items a draft agenda gets from written resolutions decided since the company's last meeting: one noting those
 * passed, and one for each referred to a meeting (the next one is this). Pure: agenda.service.ts reads them.
 */

export interface WrittenSinceLastMeeting {
  /** Passed, in the order they took effect. */
  passed: { title: string; effectiveAt: Date }[];
  /** Referred to a meeting, in the order they were referred. */
  referred: { title: string; effectiveAt: Date }[];
}

export const writtenPassedTitle = "Written resolutions passed since the last meeting";
export const referredTitlePrefix = "Referred written resolution: ";
/** At most this many items for referred resolutions: beyond it, the last one names the rest. */
const maxReferredItems = 3;
/** What an agenda item's title and description may hold (the drafts' own limits). */
const titleMax = 200;
const descriptionMax = 1000;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** Lines under an intro, as many as the description holds, then how many more there are. */
function listed(intro: string, lines: readonly string[]): string {
  const kept: string[] = [];
  const tail = (shown: number) => (lines.length > shown ? [`- and ${lines.length - shown} more`] : []);
  for (const line of lines) {
    if ([intro, ...kept, line, ...tail(kept.length + 1)].join("\n").length > descriptionMax) break;
    kept.push(line);
  }
  return [intro, ...kept, ...tail(kept.length)].join("\n");
}

/** The written resolutions' items, passed first: none when nothing was passed or referred since the last meeting. */
export function writtenResolutionItems({ passed, referred }: WrittenSinceLastMeeting): AgendaItem[] {
  const items: AgendaItem[] = [];
  if (passed.length > 0) {
    items.push({
      title: writtenPassedTitle,
      duration: 5,
      description: listed(
        "To note, as passed by the directors in writing:",
        passed.map((resolution) => `- ${resolution.title} — effective ${formatUtcDate(resolution.effectiveAt)}`),
      ),
    });
  }
  const oneByOne = referred.length <= maxReferredItems ? referred : referred.slice(0, maxReferredItems - 1);
  for (const resolution of oneByOne) {
    items.push({
      title: clip(`${referredTitlePrefix}${resolution.title}`, titleMax),
      duration: 10,
      description: clip(
        `The directors asked for a meeting on the written resolution "${resolution.title}" (referred ${formatUtcDate(resolution.effectiveAt)}): discuss it and decide it here.`,
        descriptionMax,
      ),
    });
  }
  const rest = referred.slice(oneByOne.length);
  if (rest.length > 0) {
    items.push({
      title: "Further referred written resolutions",
      duration: Math.min(120, 10 * rest.length),
      description: listed(
        "The directors asked for a meeting on these written resolutions: discuss them and decide them here.",
        rest.map((resolution) => `- ${resolution.title} — referred ${formatUtcDate(resolution.effectiveAt)}`),
      ),
    });
  }
  return items;
}

/** Whether an item of an AI's answer stands for one the server writes (it is dropped: the server's is kept). */
export function isWrittenResolutionItem(item: AgendaItem): boolean {
  const title = item.title.trim().toLowerCase();
  return title === writtenPassedTitle.toLowerCase() || title.startsWith(referredTitlePrefix.trim().toLowerCase());
}
