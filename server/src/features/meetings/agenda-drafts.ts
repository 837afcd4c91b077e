import { agendaItemsSchema, type AgendaItem } from "../../../../shared/meetings";
import { formatUtcDate } from "../../clock";
import { isWrittenResolutionItem, writtenResolutionItems, type WrittenSinceLastMeeting } from "./agenda-written";

/**
 * How a board agenda is drafted from the meeting and its company's data: the standard template, and the
 * prompt for an AI and the reading of its answer. No I/O here: agenda.service.ts loads the context and
 * calls the AI service.
 */

/** What an agenda is drafted from: the meeting and its company's data. */
export interface AgendaContext {
  meeting: { title: string; startsAt: Date; location: string };
  company: {
    name: string;
    industry: string | null;
    location: string | null;
    stage: string | null;
    description: string | null;
  };
  /** The company's pending resolutions, oldest first. */
  pendingResolutions: { title: string; type: string; deadline: Date }[];
  /** The company's newest documents (files only, never meetings). */
  recentDocuments: { name: string; category: string; createdAt: Date }[];
  /** The company's last scheduled meeting before this one, whose minutes are approved first. */
  lastMeeting: { title: string; startsAt: Date } | null;
  /** The company's open action items, soonest due first (the first of them), and how many are open in all. */
  openActionItems: { items: { title: string; ownerName: string; dueDate: string }[]; total: number };
  /** The written resolutions passed, and those referred to a meeting, since the company's last meeting. */
  writtenResolutions: WrittenSinceLastMeeting;
}

/** Fixed items around the resolutions: call to order, minutes, reports, any other business, close. */
const fixedItemCount = 5;
const maxItems = 12;

const quoted = (text: string) => `"${text}"`;

export const mattersArisingTitle = "Matters arising";
/** What an agenda item's description may hold (the drafts' own limit). */
const descriptionMax = 1000;

/**
 * The first item of a draft when action items are still open: each on a line of its own ("- title — owner, due
 * 4 Jun 2026"), as many as the description holds, then how many more there are. Null when none is open.
 */
export function mattersArising({ items, total }: AgendaContext["openActionItems"]): AgendaItem | null {
  if (total === 0) return null;
  const intro = "Follow up on the open action items:";
  const lines: string[] = [];
  const tail = (shown: number) => (total > shown ? [`- and ${total - shown} more`] : []);
  for (const item of items) {
    const line = `- ${item.title} — ${item.ownerName}, due ${formatUtcDate(item.dueDate)}`;
    const candidate = [intro, ...lines, line, ...tail(lines.length + 1)].join("\n");
    if (candidate.length > descriptionMax) break;
    lines.push(line);
  }
  return { title: mattersArisingTitle, duration: 10, description: [intro, ...lines, ...tail(lines.length)].join("\n") };
}

/**
 * The AI's items after the server's Matters arising, with the server's written resolution items after the AI's item on
 * the previous minutes (else after its first item); an item of the AI's own by one of those names is dropped. When
 * that makes more items than an agenda may have, the AI's items just before its last are dropped: the agenda still
 * ends with the close, and a usable draft beats a refusal the secretary cannot act on.
 */
export function withServerItems(items: AgendaItem[], context: AgendaContext): AgendaItem[] {
  const first = mattersArising(context.openActionItems);
  const written = writtenResolutionItems(context.writtenResolutions);
  if (!first && written.length === 0) return items;
  const rest = items.filter(
    (item) => item.title.trim().toLowerCase() !== mattersArisingTitle.toLowerCase() && !isWrittenResolutionItem(item),
  );
  const room = maxItems - (first ? 1 : 0) - written.length;
  const kept = rest.length <= room ? rest : [...rest.slice(0, room - 1), rest[rest.length - 1]!];
  const minutesAt = kept.findIndex((item) => /\bminutes\b/i.test(item.title));
  const at = minutesAt >= 0 ? minutesAt + 1 : Math.min(1, kept.length);
  return [...(first ? [first] : []), ...kept.slice(0, at), ...written, ...kept.slice(at)];
}

/**
 * A standard board agenda built from the company's data, used when no AI service is configured.
 * Always 5–12 items, so it satisfies the same rules as an AI answer.
 */
export function templateAgenda(context: AgendaContext): AgendaItem[] {
  const { company, pendingResolutions, recentDocuments, lastMeeting } = context;
  const arising = mattersArising(context.openActionItems);
  const written = writtenResolutionItems(context.writtenResolutions);
  const items: AgendaItem[] = [
    ...(arising ? [arising] : []),
    {
      title: "Call to order and quorum",
      duration: 5,
      description: `The chair opens the meeting of the board of ${company.name}, records attendance and apologies, confirms that a quorum is present and asks for declarations of interest.`,
    },
    {
      title: "Minutes of the last meeting",
      duration: 10,
      description: lastMeeting
        ? `Review and approve the minutes of ${quoted(lastMeeting.title)}, and follow up on its action items.`
        : "Review and approve the minutes of the previous board meeting, and follow up on its action items.",
    },
    ...written,
    {
      title: "Reports",
      duration: 20,
      description:
        recentDocuments.length > 0
          ? `Management and financial reports. Papers for review: ${recentDocuments.map((document) => document.name).join(", ")}.`
          : "Management and financial reports: performance since the last meeting, finances and key risks.",
    },
  ];

  const roomForResolutions = maxItems - fixedItemCount - (arising ? 1 : 0) - written.length;
  const namedOneByOne =
    pendingResolutions.length <= roomForResolutions ? pendingResolutions : pendingResolutions.slice(0, roomForResolutions - 1);
  for (const resolution of namedOneByOne) {
    items.push({
      title: `Resolution: ${resolution.title}`,
      duration: 10,
      description: `Discuss the pending ${resolution.type.toLowerCase()} resolution ${quoted(resolution.title)} and record the board's position before voting closes.`,
    });
  }
  const remaining = pendingResolutions.slice(namedOneByOne.length);
  if (remaining.length > 0) {
    items.push({
      title: "Further pending resolutions",
      duration: Math.min(120, 5 * remaining.length),
      description: `Discuss the other pending resolutions: ${remaining.map((resolution) => quoted(resolution.title)).join(", ")}.`,
    });
  }

  items.push(
    {
      title: "Any other business",
      duration: 10,
      description: "Matters raised by board members that are not on the agenda.",
    },
    {
      title: "Close of meeting",
      duration: 5,
      description: "Confirm the date of the next meeting, summarise the actions agreed and close the meeting.",
    },
  );
  return items;
}

const day = (date: Date) => date.toISOString().slice(0, 10);
const orNone = (lines: string[]) => (lines.length > 0 ? lines.join("\n") : "- none");

/** The chat messages that ask an AI for the agenda: a JSON answer of 3–12 items. */
export function agendaPrompt(context: AgendaContext): { system: string; user: string } {
  const { meeting, company, pendingResolutions, recentDocuments, lastMeeting } = context;
  const arising = mattersArising(context.openActionItems);
  const written = writtenResolutionItems(context.writtenResolutions);
  const serverItems = (arising ? 1 : 0) + written.length;
  const profile = [
    `Name: ${company.name}`,
    company.industry && `Industry: ${company.industry}`,
    company.stage && `Stage: ${company.stage}`,
    company.location && `Location: ${company.location}`,
    company.description && `Description: ${company.description}`,
  ].filter(Boolean);
  const user = [
    "Draft the agenda for this board meeting.",
    "",
    `Meeting title: ${meeting.title}`,
    `Meeting date: ${meeting.startsAt.toISOString()} (UTC), two hours`,
    `Location: ${meeting.location || "not specified"}`,
    lastMeeting ? `Previous meeting: ${lastMeeting.title} (${day(lastMeeting.startsAt)})` : "Previous meeting: none recorded",
    "",
    "Company profile:",
    ...profile,
    "",
    "Pending resolutions awaiting the board:",
    orNone(pendingResolutions.map((resolution) => `- ${resolution.title} (${resolution.type}, voting closes ${day(resolution.deadline)})`)),
    "",
    "Recent documents:",
    orNone(recentDocuments.map((document) => `- ${document.name} (${document.category}, ${day(document.createdAt)})`)),
    "",
    ...(arising
      ? [
          `The agenda will open with "${mattersArisingTitle}", already written, on these open action items; leave it out of your answer:`,
          arising.description,
          "",
        ]
      : []),
    ...(written.length > 0
      ? [
          "The agenda will also have these items on written resolutions, already written, after the previous minutes; leave them out of your answer:",
          ...written.map((item) => `- ${item.title}`),
          "",
        ]
      : []),
    'Answer with JSON only, no prose and no code fences, in exactly this shape: {"items": [{"title": string, "duration": number, "description": string}]}.',
    `Give 3 to ${maxItems - serverItems} items in running order. duration is whole minutes between 1 and 120. description is one or two sentences.`,
    "Open with the call to order and quorum, approve the previous minutes, give each pending resolution its own item by name, and end with any other business and the close.",
  ].join("\n");
  return {
    system: "You are an experienced company secretary who drafts concise, well-ordered board meeting agendas. You answer with JSON only.",
    user,
  };
}

/** Whole minutes given as "10" are read as 10; anything else must already be a number. */
const normaliseDuration = (value: unknown) => (typeof value === "string" && /^\s*\d{1,3}\s*$/.test(value) ? Number(value) : value);

/** Reads an AI's answer: a JSON object with `items` (or a bare array), optionally wrapped in a code fence. Null when it is not a valid agenda. */
export function parseAgendaAnswer(text: string | null | undefined): AgendaItem[] | null {
  if (!text) return null;
  const unfenced = text
    .trim()
    .replace(/^```(?:json)?\s*/i, "")
    .replace(/\s*```$/, "");
  let parsed: unknown;
  try {
    parsed = JSON.parse(unfenced);
  } catch {
    return null;
  }
  const list = Array.isArray(parsed)
    ? parsed
    : ((parsed as { items?: unknown; agenda?: unknown } | null)?.items ?? (parsed as { agenda?: unknown } | null)?.agenda);
  if (!Array.isArray(list)) return null;
  const candidates = list.map((item: unknown) =>
    item && typeof item === "object" ? { ...item, duration: normaliseDuration((item as { duration?: unknown }).duration) } : item,
  );
  const result = agendaItemsSchema.safeParse(candidates);
  return result.success ? result.data : null;
}
