import type { PDFImage } from "@cantoo/pdf-lib";
import { agendaPurposeLabels, type MeetingStatus } from "../../../../shared/meeting-model";
import type { PackData, PackItem, PackPaper } from "./board-pack.data";
import { Flow, type Fonts, type Line, type PlannedPage, type Style } from "../../integrations/pdf-layout";

// What the pack's own pages say: the cover, the agenda and each item's section page, planned (not yet drawn).

const weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** Written by hand, not by Intl, so a pack reads the same whatever the server's locale data. */
const day = (date: Date) => `${weekdays[date.getUTCDay()]}, ${date.getUTCDate()} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
const time = (date: Date) => `${String(date.getUTCHours()).padStart(2, "0")}:${String(date.getUTCMinutes()).padStart(2, "0")}`;
/** "2 Jun 14:05 UTC": said, as every time in the pack is, since a reader's own clock may differ. */
const dayMonthTime = (iso: string) => {
  const date = new Date(iso);
  return `${date.getUTCDate()} ${months[date.getUTCMonth()]!.slice(0, 3)} ${time(date)} UTC`;
};

/** "Tuesday, 1 December 2026, 10:00–12:00 UTC" (times in UTC: users have no time zone of their own yet). */
export function meetingWhen(startsAt: string, endsAt: string): string {
  const start = new Date(startsAt);
  const end = new Date(endsAt);
  if (day(start) === day(end)) return `${day(start)}, ${time(start)}–${time(end)} UTC`;
  return `${day(start)}, ${time(start)} UTC – ${day(end)}, ${time(end)} UTC`;
}

/** "10:00–10:15 UTC · 15 min". */
function itemWhen(item: PackItem): string {
  const start = new Date(item.startsAt);
  const end = new Date(start.getTime() + item.durationMinutes * 60_000);
  return `${time(start)}–${time(end)} UTC · ${item.durationMinutes} min`;
}

const statusText: Record<MeetingStatus, string> = {
  draft: "Draft",
  pending: "Pending confirmation",
  confirmed: "Confirmed",
  cancelled: "Cancelled",
};

/** What became of a paper in the pack; `offset` counts the pages of the item's papers before its own. */
export type PaperOutcome =
  | { kind: "pages"; offset: number; count: number }
  | { kind: "image"; offset: number }
  | { kind: "attachment" }
  | { kind: "failed"; reason: string }
  /** Left out: the pack already holds as many papers, or as many bytes of them, as it may. */
  | { kind: "omitted" }
  /** Left out: reading it took a build past its memory or time cap. */
  | { kind: "tooLarge" };

export const notMergedNote = "attachment not merged — download from the library";
export const sizeLimitNote = "not included: the board pack is at its size limit — download from the library";
export const tooLargeNote = "too large to include — download from the library";

/** `firstPage`: the number of the page after the item's section page(s), where its papers begin. */
function outcomeNote(outcome: PaperOutcome, firstPage: number): string {
  switch (outcome.kind) {
    case "pages": {
      const from = firstPage + outcome.offset;
      return outcome.count === 1 ? `1 page: page ${from}` : `${outcome.count} pages: pages ${from}–${from + outcome.count - 1}`;
    }
    case "image":
      return `image: page ${firstPage + outcome.offset}`;
    case "attachment":
      return notMergedNote;
    case "omitted":
      return sizeLimitNote;
    case "tooLarge":
      return tooLargeNote;
    case "failed":
      return `could not be included: ${outcome.reason}`;
  }
}

const style = {
  title: { font: "bold", size: 24 },
  heading: { font: "bold", size: 18 },
  label: { font: "bold", size: 9, color: "accent" },
  subheading: { font: "bold", size: 12 },
  body: { size: 11 },
  itemTitle: { font: "bold", size: 12 },
  detail: { size: 9.5, color: "muted" },
  pageNumber: { font: "bold", size: 12, color: "accent" },
} satisfies Record<string, Style>;

/**
 * The cover: company (and logo), meeting, when and where, status and participants, and the papers replaced since
 * the pack was first issued (with their new version, when, and why).
 */
export function planCover(fonts: Fonts, data: PackData, logo: PDFImage | null): PlannedPage[] {
  const flow = new Flow(fonts);
  if (logo) {
    flow.image(logo, { width: 180, height: 72 });
    flow.space(16);
  }
  flow.text(data.company.name, { font: "bold", size: 14, color: "muted" });
  flow.space(48);
  flow.text("BOARD PACK", style.label);
  flow.space(6);
  flow.text(data.meeting.title, style.title);
  flow.space(12);
  flow.text(meetingWhen(data.meeting.startsAt, data.meeting.endsAt), { size: 13 });
  flow.text(data.meeting.location, { size: 13 });
  flow.text(`Status: ${statusText[data.meeting.status]}`, { size: 11, color: "muted" });
  flow.space(28);
  flow.text("Participants", style.subheading);
  flow.space(4);
  if (data.participants.length === 0) flow.text("No participants listed", { ...style.body, color: "muted" });
  for (const name of data.participants) flow.text(name, style.body);
  if (data.replacedSince.length > 0) {
    flow.space(28);
    flow.text("Replaced since this pack was first issued:", style.subheading);
    flow.space(4);
    for (const paper of data.replacedSince) {
      const note = paper.note ? `, ${paper.note}` : "";
      flow.text(`${paper.name} — v${paper.version}, ${dayMonthTime(paper.replacedAt)}${note}`, style.body);
    }
  }
  return flow.pages;
}

/** "v3 · replaced 2 Jun 14:05 UTC" for a paper replaced at least once, as the app shows it; null for a first version. */
function versionLine(paper: PackPaper): string | null {
  if (paper.version <= 1) return null;
  return paper.replacedAt ? `v${paper.version} · replaced ${dayMonthTime(paper.replacedAt)}` : `v${paper.version}`;
}

const numberColumn = 26;
const pageColumn = 48;

/**
 * The agenda: each item's number, title, time, presenter and papers (a replaced one with its version and when), and
 * the page its section starts on.
 * `pageOf` is asked only when the page is drawn, once every section has its place.
 */
export function planAgenda(fonts: Fonts, data: PackData, pageOf: (index: number) => number): PlannedPage[] {
  const flow = new Flow(fonts);
  flow.text("Agenda", style.heading);
  flow.text(`${data.meeting.title} · ${meetingWhen(data.meeting.startsAt, data.meeting.endsAt)}`, { size: 10, color: "muted" });
  flow.space(8);
  flow.rule();
  if (data.items.length === 0) {
    flow.space(8);
    flow.text("This meeting has no agenda items yet.", { ...style.body, color: "muted" });
    return flow.pages;
  }
  data.items.forEach((item, index) => {
    flow.space(10);
    const column = { indent: numberColumn, reserveRight: pageColumn };
    const [first, ...rest] = flow.lines(item.title, style.itemTitle, column);
    const lines: Line[] = [
      {
        ...first!,
        lead: `${index + 1}.`,
        right: { text: () => String(pageOf(index)), style: style.pageNumber },
      },
      ...rest,
      ...flow.lines(itemWhen(item), style.detail, column),
      ...flow.lines(agendaPurposeLabels[item.purpose], style.detail, column),
    ];
    if (item.presenter) lines.push(...flow.lines(`Presented by ${item.presenter}`, style.detail, column));
    if (item.papers.length > 0) {
      const named = item.papers.map((paper) => {
        const version = versionLine(paper);
        return version ? `${paper.name} (${version})` : paper.name;
      });
      lines.push(...flow.lines(`Papers: ${named.join(", ")}`, style.detail, column));
    }
    flow.block(lines, { keepTogether: true });
  });
  return flow.pages;
}

/**
 * An item's section page: its number and title, time, presenter, description and what became of each paper (a
 * replaced one named with its version and when, as on the agenda).
 * `firstPage` is the number of the page its papers begin on.
 */
export function planSection(fonts: Fonts, data: PackData, index: number, outcomes: PaperOutcome[], firstPage: number): PlannedPage[] {
  const item = data.items[index]!;
  const flow = new Flow(fonts);
  flow.text(`ITEM ${index + 1} OF ${data.items.length}`, style.label);
  flow.space(6);
  flow.text(item.title, style.heading);
  flow.space(4);
  flow.text(itemWhen(item), { size: 11, color: "muted" });
  if (item.presenter) flow.text(`Presented by ${item.presenter}`, { size: 11, color: "muted" });
  if (item.description.trim()) {
    flow.space(14);
    flow.text(item.description, style.body);
  }
  flow.space(18);
  flow.text("Papers", style.subheading);
  flow.rule();
  if (item.papers.length === 0) flow.text("No papers for this item.", { ...style.body, color: "muted" });
  item.papers.forEach((paper, paperIndex) => {
    const outcome = outcomes[paperIndex]!;
    const version = versionLine(paper);
    flow.space(4);
    flow.block(
      [
        ...flow.lines(`• ${paper.name}${version ? ` (${version})` : ""}`, style.body),
        ...flow.lines(
          outcomeNote(outcome, firstPage),
          { ...style.detail, color: ["failed", "omitted", "tooLarge"].includes(outcome.kind) ? "accent" : "muted" },
          { indent: 10 },
        ),
      ],
      { keepTogether: true },
    );
  });
  return flow.pages;
}
