import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { eq } from "drizzle-orm";
import type { PaperNote } from "../../../../shared/paper-reading";
import type { ServiceDeps } from "../../app-deps";
import { meetings } from "../../db/schema";
import { notFound } from "../../http/errors";
import { drawFooter, Flow, pageSize, render, type Fonts, type Style } from "../../integrations/pdf-layout";
import { notesOn } from "./notes.service";
import { meetingPapers, type MeetingPaper } from "./paper-pages";

// A director's own notes on a meeting's papers, to keep or print: by paper, then by page.

interface PaperNotes {
  paper: MeetingPaper;
  notes: PaperNote[];
}

export interface NotesExport {
  filename: string;
  contentType: string;
  body: Buffer;
}

/** `GET /api/meetings/:id/notes/export`: the caller's notes on the meeting's papers, as Markdown or a PDF. */
export async function exportNotes(
  deps: ServiceDeps<"db" | "clock" | "appSecret" | "outbound" | "logger">,
  userId: number,
  meetingId: number,
  format: "md" | "pdf",
): Promise<NotesExport> {
  const [meeting] = await deps.db.select({ title: meetings.title }).from(meetings).where(eq(meetings.documentId, meetingId));
  if (!meeting) throw notFound("Meeting not found");
  const papers = await meetingPapers(deps.db, meetingId);
  const notes = await notesOn(
    deps,
    userId,
    papers.map((paper) => paper.documentId),
  );
  const byPaper: PaperNotes[] = papers
    .map((paper) => ({ paper, notes: notes.filter((note) => note.documentId === paper.documentId) }))
    .filter((entry) => entry.notes.length > 0);
  const title = `My notes - ${meeting.title}`;
  if (format === "pdf")
    return { filename: `${title}.pdf`, contentType: "application/pdf", body: Buffer.from(await notesPdf(meeting.title, byPaper)) };
  return {
    filename: `${title}.md`,
    contentType: "text/markdown; charset=utf-8",
    body: Buffer.from(notesMarkdown(meeting.title, byPaper), "utf8"),
  };
}

/** Where a note sits: its page, or for an unplaced one the page of the version it was written on. */
const placeOf = (note: PaperNote) =>
  note.unplaced ? `Page ${note.page} of version ${note.version} (no longer in the paper)` : `Page ${note.page}`;

/** Markdown's special characters in a line of text taken literally (a paper's name, a quote). */
const literal = (text: string) => text.replace(/([\\`*_[\]#<>|])/g, "\\$1");

export function notesMarkdown(meetingTitle: string, papers: readonly PaperNotes[]): string {
  const out = [`# My notes: ${literal(meetingTitle)}`, ""];
  if (papers.length === 0) out.push("No notes on this meeting's papers.", "");
  for (const { paper, notes } of papers) {
    out.push(`## ${literal(paper.name)} (version ${paper.version})`, "");
    let place = "";
    for (const note of notes) {
      if (placeOf(note) !== place) {
        place = placeOf(note);
        out.push(`### ${place}`, "");
      }
      if (note.quote) out.push(...note.quote.split(/\r?\n/).map((line) => `> ${literal(line)}`), "");
      out.push(note.text, "");
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}

const styles = {
  title: { font: "bold", size: 18 },
  paper: { font: "bold", size: 14 },
  page: { font: "bold", size: 11, color: "accent" },
  quote: { size: 10, color: "muted" },
  body: { size: 10.5 },
} satisfies Record<string, Style>;

async function notesPdf(meetingTitle: string, papers: readonly PaperNotes[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(`My notes: ${meetingTitle}`, { showInWindowTitleBar: true });
  pdf.setCreator("Quorum");
  pdf.setProducer("Quorum");
  const fonts: Fonts = { regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) };
  const flow = new Flow(fonts);
  flow.text(`My notes: ${meetingTitle}`, styles.title);
  flow.rule();
  if (papers.length === 0) flow.text("No notes on this meeting's papers.", styles.body);
  for (const { paper, notes } of papers) {
    flow.space(10);
    flow.text(`${paper.name} (version ${paper.version})`, styles.paper);
    let place = "";
    for (const note of notes) {
      if (placeOf(note) !== place) {
        place = placeOf(note);
        flow.space(6);
        flow.text(place, styles.page);
      }
      flow.space(3);
      if (note.quote) flow.text(`"${note.quote}"`, styles.quote, { indent: 12 });
      flow.text(note.text, styles.body);
    }
  }
  const pages = flow.pages.map((runs) => {
    const page = pdf.addPage(pageSize);
    render(page, runs, fonts);
    return page;
  });
  pages.forEach((page, index) => drawFooter(page, `Page ${index + 1} of ${pages.length}`, fonts.regular));
  return pdf.save({ useObjectStreams: false });
}
