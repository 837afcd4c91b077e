import { rgb, type PDFFont, type PDFImage, type PDFPage, type RGB } from "@cantoo/pdf-lib";
import { Encodings } from "@cantoo/pdf-lib/standard-fonts";

// The layout of the PDFs Quorum writes itself (the board pack's own pages, approved minutes, written resolutions'
// certificates): text is planned first, as positioned runs on A4 pages, and drawn after. The pack's agenda needs
// that: its page numbers are known only once every paper has been read, but its length must be known before.

/** A4, in points. */
export const pageSize: [number, number] = [595.28, 841.89];
export const margin = 56;
/** Room kept at the bottom of every page for its footer. */
const footerRoom = 28;
const top = pageSize[1] - margin;
const bottom = margin + footerRoom;
const contentWidth = pageSize[0] - 2 * margin;

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

const colors = {
  text: rgb(0.11, 0.12, 0.14),
  muted: rgb(0.42, 0.45, 0.5),
  accent: rgb(0.16, 0.32, 0.62),
} satisfies Record<string, RGB>;

export interface Style {
  font?: keyof Fonts;
  size: number;
  color?: keyof typeof colors;
}

interface TextRun {
  kind: "text";
  /** A function when the text is known only at drawing time (an agenda item's page number). */
  text: string | (() => string);
  x: number;
  y: number;
  style: Style;
  align: "left" | "right";
}
interface ImageRun {
  kind: "image";
  image: PDFImage;
  x: number;
  y: number;
  width: number;
  height: number;
}
interface RuleRun {
  kind: "rule";
  y: number;
}
type Run = TextRun | ImageRun | RuleRun;
export type PlannedPage = Run[];

/** One line of a block: its text, where it starts, and optionally a right-aligned text on the same line. */
export interface Line {
  text: string;
  style: Style;
  indent?: number;
  /** Drawn at the margin, in the line's style, before the indented text (an agenda item's number). */
  lead?: string;
  right?: { text: () => string; style: Style };
}

const lineHeight = (style: Style) => style.size * 1.35;

/**
 * Text Helvetica can write: its standard encoding is Windows-1252, so any other character becomes its unaccented
 * letter when it has one ("ő" → "o") or "?" ("会" → "?"); control characters become spaces.
 */
export function pdfText(value: string): string {
  let out = "";
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += " ";
    else if (Encodings.WinAnsi.canEncodeUnicodeCodePoint(code)) out += char;
    else {
      const base = char.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
      out += base !== "" && [...base].every((part) => Encodings.WinAnsi.canEncodeUnicodeCodePoint(part.codePointAt(0)!)) ? base : "?";
    }
  }
  return out;
}

/** `text` (already writable) cut into lines of at most `width` points; a word longer than a line is cut too. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  const fits = (candidate: string) => font.widthOfTextAtSize(candidate, size) <= width;
  for (const word of text.split(/ +/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    let rest = word;
    while (!fits(rest)) {
      // The longest start that fits (at least one character), found by halving: a few measurements per line.
      let [low, high] = [1, rest.length - 1];
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if (fits(rest.slice(0, middle))) low = middle;
        else high = middle - 1;
      }
      lines.push(rest.slice(0, low));
      rest = rest.slice(low);
    }
    line = rest;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

/** Lays out text top to bottom over as many pages as it needs. */
export class Flow {
  readonly pages: PlannedPage[] = [[]];
  private y = top;

  constructor(private readonly fonts: Fonts) {}

  private get page(): PlannedPage {
    return this.pages[this.pages.length - 1]!;
  }

  newPage(): void {
    this.pages.push([]);
    this.y = top;
  }

  /** Vertical space, dropped at the top of a page. */
  space(points: number): void {
    if (this.y < top) this.y -= points;
  }

  /** A thin line across the page. */
  rule(): void {
    this.ensure(8);
    this.y -= 4;
    this.page.push({ kind: "rule", y: this.y });
    this.y -= 4;
  }

  private ensure(height: number): void {
    if (this.y - height < bottom && this.y < top) this.newPage();
  }

  /** Lines that wrap `text` at the width left after `indent` (and after room for a right-aligned text). */
  lines(text: string, style: Style, options: { indent?: number; reserveRight?: number } = {}): Line[] {
    const indent = options.indent ?? 0;
    const font = this.fonts[style.font ?? "regular"];
    const width = contentWidth - indent - (options.reserveRight ?? 0);
    return text
      .split(/\r?\n/)
      .flatMap((paragraph) => wrap(pdfText(paragraph).trim(), font, style.size, width))
      .map((line) => ({ text: line, style, indent }));
  }

  /** Lines placed in order; with `keepTogether`, a block that fits on a page is never split across two. */
  block(lines: Line[], options: { keepTogether?: boolean } = {}): void {
    if (options.keepTogether) this.ensure(lines.reduce((sum, line) => sum + lineHeight(line.style), 0));
    for (const line of lines) {
      const height = lineHeight(line.style);
      this.ensure(height);
      this.y -= height;
      const baseline = this.y + line.style.size * 0.3;
      if (line.lead) this.page.push({ kind: "text", text: pdfText(line.lead), x: margin, y: baseline, style: line.style, align: "left" });
      this.page.push({ kind: "text", text: line.text, x: margin + (line.indent ?? 0), y: baseline, style: line.style, align: "left" });
      if (line.right) {
        this.page.push({
          kind: "text",
          text: line.right.text,
          x: pageSize[0] - margin,
          y: baseline,
          style: line.right.style,
          align: "right",
        });
      }
    }
  }

  /** Wrapped text in one style. */
  text(text: string, style: Style, options: { indent?: number } = {}): void {
    this.block(this.lines(text, style, options));
  }

  /** An image at the left margin, scaled down to fit the box. */
  image(image: PDFImage, box: { width: number; height: number }): void {
    const scale = Math.min(1, box.width / image.width, box.height / image.height);
    const width = image.width * scale;
    const height = image.height * scale;
    this.ensure(height);
    this.y -= height;
    this.page.push({ kind: "image", image, x: margin, y: this.y, width, height });
  }
}

/** Draws a planned page onto a page of the document. */
export function render(page: PDFPage, runs: PlannedPage, fonts: Fonts): void {
  for (const run of runs) {
    if (run.kind === "image") {
      page.drawImage(run.image, { x: run.x, y: run.y, width: run.width, height: run.height });
    } else if (run.kind === "rule") {
      page.drawLine({ start: { x: margin, y: run.y }, end: { x: pageSize[0] - margin, y: run.y }, thickness: 0.5, color: colors.muted });
    } else {
      const font = fonts[run.style.font ?? "regular"];
      const text = typeof run.text === "string" ? run.text : pdfText(run.text());
      const x = run.align === "right" ? run.x - font.widthOfTextAtSize(text, run.style.size) : run.x;
      page.drawText(text, { x, y: run.y, size: run.style.size, font, color: colors[run.style.color ?? "text"] });
    }
  }
}

/** "Page n of N", centred at the foot of a page of the pack's own size or of a paper's (its visible area). */
export function drawFooter(page: PDFPage, text: string, font: PDFFont): void {
  const box = page.getCropBox();
  const size = 8;
  const width = font.widthOfTextAtSize(text, size);
  page.drawText(text, { x: box.x + (box.width - width) / 2, y: box.y + 20, size, font, color: colors.muted });
}
