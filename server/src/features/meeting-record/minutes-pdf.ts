// Approved minutes as a PDF for the library: the text as approved, how it was approved, and its SHA-256, so a
// printed copy can be checked against the record.
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { drawFooter, Flow, pageSize, render, type Fonts, type Style } from "../../integrations/pdf-layout";

export interface MinutesPdfInput {
  company: string;
  meetingTitle: string;
  text: string;
  /** "Approved by resolution #12 on 3 Dec 2026: ..." or "Signed by Fay Founder on 3 Dec 2026". */
  approval: string;
  sha256: string;
}

const styles = {
  title: { font: "bold", size: 18 },
  subtitle: { size: 11, color: "muted" },
  heading1: { font: "bold", size: 15 },
  heading2: { font: "bold", size: 13 },
  heading3: { font: "bold", size: 11.5 },
  body: { size: 10.5 },
  approval: { font: "bold", size: 10.5, color: "accent" },
  hash: { size: 9, color: "muted" },
} satisfies Record<string, Style>;

/** A Markdown line's style and its text without the heading marks. */
function styled(line: string): { text: string; style: Style } {
  const heading = /^(#{1,6})\s+(.*)$/.exec(line);
  if (!heading) return { text: line, style: styles.body };
  const level = heading[1]!.length;
  return { text: heading[2]!, style: level === 1 ? styles.heading1 : level === 2 ? styles.heading2 : styles.heading3 };
}

/** The PDF's bytes; the same input gives the same bytes (no dates written by the library). */
export async function buildMinutesPdf(input: MinutesPdfInput): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(`Minutes: ${input.meetingTitle}`, { showInWindowTitleBar: true });
  pdf.setAuthor(input.company);
  pdf.setCreator("Quorum");
  pdf.setProducer("Quorum");
  const fonts: Fonts = { regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) };

  const flow = new Flow(fonts);
  flow.text(`Minutes: ${input.meetingTitle}`, styles.title);
  flow.text(input.company, styles.subtitle);
  flow.space(6);
  flow.rule();
  for (const line of input.text.replace(/\s+$/, "").split(/\r?\n/)) {
    const { text, style } = styled(line);
    if (style !== styles.body) flow.space(4);
    flow.text(text, style);
  }
  flow.space(10);
  flow.rule();
  flow.block([...flow.lines(input.approval, styles.approval), ...flow.lines(`SHA-256 of the text: ${input.sha256}`, styles.hash)], {
    keepTogether: true,
  });

  const pages = flow.pages.map((runs) => {
    const page = pdf.addPage(pageSize);
    render(page, runs, fonts);
    return page;
  });
  pages.forEach((page, index) => drawFooter(page, `Page ${index + 1} of ${pages.length}`, fonts.regular));
  return pdf.save({ useObjectStreams: false });
}
