// A version's text, page by page. Runs in a text worker (text.worker.ts): reading a hostile PDF may take memory and
// time, and the worker is what is capped and ended.
import mammoth from "mammoth";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/** The text kept of a page, and of a whole version (pages past it are kept empty): bounded storage and comparison. */
export const textLimits = { maxPageChars: 50_000, maxTotalChars: 2_000_000 };

/** How a file's type is read for text: page by page, as one page, or not at all. */
export type TextKind = "pdf" | "docx" | "txt" | "none";

export function textKindOf(fileType: string): TextKind {
  if (fileType === "application/pdf") return "pdf";
  if (fileType === "application/vnd.openxmlformats-officedocument.wordprocessingml.document") return "docx";
  if (fileType.startsWith("text/plain")) return "txt";
  return "none";
}

// eslint-disable-next-line no-control-regex -- control characters are what is removed (Postgres refuses NUL in text)
const controlChars = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Lines trimmed, their spaces collapsed, blank lines dropped, control characters removed. */
export function cleanText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(controlChars, "")
    .split("\n")
    .map((line) => line.replace(/[\t ]+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}

/** Pages cut to the bounds: each to its own, and the whole (the pages past it kept, empty, so page numbers hold). */
function bounded(pages: string[]): string[] {
  let left = textLimits.maxTotalChars;
  return pages.map((page) => {
    const kept = page.slice(0, Math.min(textLimits.maxPageChars, left));
    left -= kept.length;
    return kept;
  });
}

interface TextItem {
  str: string;
  hasEOL: boolean;
  transform: number[];
  height: number;
}

/** A PDF page's items as lines: a new line at an end-of-line mark, or where an item sits at another height. */
function linesOfItems(items: TextItem[]): string {
  const lines: string[] = [];
  let line = "";
  let y: number | null = null;
  for (const item of items) {
    const itemY = item.transform[5] ?? 0;
    const tolerance = Math.max(1, (item.height || 10) / 2);
    if (y !== null && item.str !== "" && Math.abs(itemY - y) > tolerance) {
      lines.push(line);
      line = "";
    }
    line += item.str;
    if (item.str !== "") y = itemY;
    if (item.hasEOL) {
      lines.push(line);
      line = "";
      y = null;
    }
  }
  lines.push(line);
  return cleanText(lines.join("\n"));
}

async function pdfPages(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocument({
    data: bytes,
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
  }).promise;
  try {
    const pages: string[] = [];
    let total = 0;
    for (let n = 1; n <= pdf.numPages; n += 1) {
      // Past the whole's bound the pages are not even read: they are kept empty.
      if (total >= textLimits.maxTotalChars) {
        pages.push("");
        continue;
      }
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const text = linesOfItems(content.items.flatMap((item) => ("str" in item ? [item as TextItem] : [])));
      page.cleanup();
      total += text.length;
      pages.push(text);
    }
    return pages;
  } finally {
    await pdf.destroy();
  }
}

/** A version's text page by page (null: it has none), and its page count when it has pages (a PDF). */
export interface ExtractedText {
  texts: string[] | null;
  pages: number | null;
}

/**
 * A file's text page by page: a PDF's pages, a Word or text file as one page; null when it has none (a Word 97
 * file, an image, a scanned PDF with no text on any page).
 */
export async function extractText(kind: TextKind, bytes: Uint8Array): Promise<ExtractedText> {
  let pages: string[];
  if (kind === "pdf") {
    pages = await pdfPages(bytes);
  } else if (kind === "docx") {
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    pages = [cleanText(value)];
  } else if (kind === "txt") {
    pages = [cleanText(new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, ""))];
  } else {
    return { texts: null, pages: null };
  }
  const kept = bounded(pages);
  if (kind !== "pdf") return { texts: kept, pages: null };
  // A text file or Word document with nothing in it still has its one (empty) page; a PDF without text has none.
  return { texts: kept.every((page) => page === "") ? null : kept, pages: kept.length };
}
