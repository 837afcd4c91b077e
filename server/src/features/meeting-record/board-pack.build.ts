import {
  ParseSpeeds,
  PDFArray,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFPage,
  StandardFonts,
  type PDFImage,
  type PDFRef,
} from "@cantoo/pdf-lib";
import type { PackData, PackPaper } from "./board-pack.data";
import { drawFooter, margin, pageSize, pdfText, render, type Fonts } from "../../integrations/pdf-layout";
import { planAgenda, planCover, planSection, type PaperOutcome } from "./board-pack.pages";
import { nestPageTree } from "./board-pack.page-tree";
import type { PackBuildLimits } from "./pdf-jobs";

// Runs in a PDF worker (pdf.worker.ts), never on the thread that answers requests.

/**
 * A PNG is decoded to raw pixels when embedded: one larger than this (a photograph of 5000 × 5000, or a small file
 * that claims huge dimensions) is listed instead, so a single image cannot take hundreds of megabytes.
 */
const maxImagePixels = 25_000_000;

/** Where a build gets its papers' bytes: the main thread reads them from storage and hands them over. */
export interface PaperSource {
  /** A paper's bytes: null when it was deleted meanwhile, "too large" once more than `room` bytes came. */
  read(paper: PackPaper, room: number): Promise<Buffer | null | "too large">;
  /** The paper is in the pack (or listed as failed): a worker dying after this did not die of it. */
  done(paper: PackPaper): void;
}

/**
 * Builds a meeting's board pack: the cover, the agenda with each item's page number, then for each item its
 * section page followed by its PDF papers' pages and its images, one page each. The outline holds one entry per
 * item. Papers are read one at a time, in agenda order, so at most one paper's bytes are held beside the pack, and
 * each once: a paper on several items is shown again from the pages it already has in the pack. Papers in
 * `tooLarge` (an earlier build died reading them) are listed as too large to include, and not read.
 */
export async function buildPack(
  data: PackData,
  limits: PackBuildLimits,
  tooLarge: ReadonlySet<number>,
  source: PaperSource,
): Promise<Uint8Array> {
  const build: Build = { limits, tooLarge, source };
  // No dates or producer written by the library: the same agenda and papers give the same bytes.
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(`Board pack: ${data.meeting.title}`, { showInWindowTitleBar: true });
  pdf.setAuthor(data.company.name);
  pdf.setCreator("Quorum");
  pdf.setProducer("Quorum");
  const fonts: Fonts = { regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) };

  const logo = await embedLogo(pdf, data.company.logoUrl);
  for (const runs of planCover(fonts, data, logo)) render(pdf.addPage(pageSize), runs, fonts);

  const sectionStarts: number[] = [];
  const agenda = planAgenda(fonts, data, (index) => sectionStarts[index]! + 1);
  const agendaPages = agenda.map(() => pdf.addPage(pageSize));

  const sections: PDFPage[] = [];
  const progress: PackProgress = { merged: 0, bytesRead: 0, placed: new Map() };
  for (const [index, item] of data.items.entries()) {
    const start = pdf.getPageCount();
    const outcomes: PaperOutcome[] = [];
    for (const paper of item.papers) outcomes.push(await addPaper(build, pdf, paper, fonts, pdf.getPageCount() - start, progress));
    // The section page is written once its papers are read (it says what became of each and on which pages),
    // then put before them. The numbers it names depend on its own length: planned again until they agree.
    let firstPaperPage = start + 2;
    let plan = planSection(fonts, data, index, outcomes, firstPaperPage);
    for (let tries = 0; tries < 3 && start + plan.length + 1 !== firstPaperPage; tries += 1) {
      firstPaperPage = start + plan.length + 1;
      plan = planSection(fonts, data, index, outcomes, firstPaperPage);
    }
    plan.forEach((runs, offset) => render(pdf.insertPage(start + offset, pageSize), runs, fonts));
    sectionStarts[index] = start;
    sections.push(pdf.getPage(start));
  }
  agendaPages.forEach((page, index) => render(page, agenda[index]!, fonts));

  addOutline(
    pdf,
    data.items.map((item, index) => ({ title: item.title, page: sections[index]!.ref })),
  );
  stampPageNumbers(pdf, fonts);
  nestPageTree(pdf);
  // Object streams would make the file a little smaller and its writing much slower; a few hundred objects are
  // written between yields to the event loop, so other requests are not held up for the whole write.
  return pdf.save({ useObjectStreams: false, objectsPerTick: 500 });
}

/**
 * A paper met earlier in this pack, to be shown again for another item without reading it again: a PDF's pages
 * there, an image as embedded, or why it could not be read.
 */
type Placed = { pages: PDFPage[] } | { image: PDFImage } | { outcome: Extract<PaperOutcome, { kind: "failed" }> };

/** What a build is given besides the meeting. */
interface Build {
  limits: PackBuildLimits;
  tooLarge: ReadonlySet<number>;
  source: PaperSource;
}

/** What one pack has taken so far, against its limits, and each paper already read. */
interface PackProgress {
  merged: number;
  bytesRead: number;
  placed: Map<number, Placed>;
}

/**
 * A paper's pages (a PDF), its own page (a PNG or JPEG), or a line saying why it is not in the pack. A paper on
 * several items is read once: later items show the pages it already has in the pack.
 */
async function addPaper(
  { limits, tooLarge, source }: Build,
  pdf: PDFDocument,
  paper: PackPaper,
  fonts: Fonts,
  offset: number,
  progress: PackProgress,
): Promise<PaperOutcome> {
  const kind =
    paper.fileType === "application/pdf" ? "pdf" : paper.fileType === "image/png" || paper.fileType === "image/jpeg" ? "image" : null;
  if (kind === null) return { kind: "attachment" };
  const earlier = progress.placed.get(paper.id);
  if (earlier && "outcome" in earlier) return earlier.outcome;
  if (tooLarge.has(paper.id)) return { kind: "tooLarge" };
  if (progress.merged >= limits.maxMergedPapers) return { kind: "omitted" };
  if (earlier) {
    progress.merged += 1;
    if ("image" in earlier) {
      addImagePage(pdf, paper, earlier.image, fonts);
      return { kind: "image", offset };
    }
    for (const page of earlier.pages) pdf.addPage(samePageAgain(pdf, page));
    return { kind: "pages", offset, count: earlier.pages.length };
  }

  const room = limits.maxPaperBytes - progress.bytesRead;
  if (paper.fileSize > room) return { kind: "omitted" };
  const outcome = await readAndAdd(source, pdf, paper, kind, fonts, offset, progress, room, limits);
  source.done(paper);
  return outcome;
}

/** A paper not met before in this pack: its bytes asked for, then its pages or its image added. */
async function readAndAdd(
  source: PaperSource,
  pdf: PDFDocument,
  paper: PackPaper,
  kind: "pdf" | "image",
  fonts: Fonts,
  offset: number,
  progress: PackProgress,
  room: number,
  limits: PackBuildLimits,
): Promise<PaperOutcome> {
  const bytes = await source.read(paper, room);
  if (bytes === "too large") {
    progress.bytesRead = limits.maxPaperBytes;
    return { kind: "omitted" };
  }
  if (bytes === null) return failed(progress, paper, "it is no longer in the library");
  progress.bytesRead += bytes.length;
  if (kind === "image") {
    const image = await embedImage(pdf, bytes, paper.fileType);
    if (image === "too large") return failed(progress, paper, "the image is too large");
    if (image === null) return failed(progress, paper, "the image is damaged");
    addImagePage(pdf, paper, image, fonts);
    progress.placed.set(paper.id, { image });
    progress.merged += 1;
    return { kind: "image", offset };
  }
  const pages = await addPdfPages(pdf, bytes);
  if (typeof pages === "string") return failed(progress, paper, pages);
  progress.placed.set(paper.id, { pages });
  progress.merged += 1;
  return { kind: "pages", offset, count: pages.length };
}

function failed(progress: PackProgress, paper: PackPaper, reason: string): PaperOutcome {
  const outcome = { kind: "failed", reason } as const;
  progress.placed.set(paper.id, { outcome });
  return outcome;
}

/** A PDF paper's pages, added at the end of the pack; or why they cannot be. */
async function addPdfPages(pdf: PDFDocument, bytes: Buffer): Promise<PDFPage[] | string> {
  let copied: PDFPage[];
  try {
    // An empty user password opens the many PDFs that are encrypted only to restrict printing or copying.
    const source = await PDFDocument.load(bytes, { password: "", updateMetadata: false, parseSpeed: ParseSpeeds.Fast });
    // A damaged file may parse and fail only here, when its page tree is read.
    copied = await pdf.copyPages(source, source.getPageIndices());
  } catch {
    return bytes.includes("/Encrypt") ? "the file is password-protected" : "the file is encrypted or damaged";
  }
  if (copied.length === 0) return "the file has no pages";
  for (const page of copied) pdf.addPage(page);
  return copied;
}

/**
 * A new page showing what a paper's `page` shows: its own page object over the same content streams and resources,
 * so a paper on several items is stored once in the file. Its list of content streams is its own: its footer goes
 * there. (Only for a paper's pages, which nothing has drawn on yet: a page drawn on keeps adding to its last stream.)
 */
function samePageAgain(pdf: PDFDocument, page: PDFPage): PDFPage {
  const leaf = page.node.clone();
  leaf.delete(PDFName.of("Parent"));
  const contents = leaf.Contents();
  if (contents instanceof PDFArray) leaf.set(PDFName.of("Contents"), pdf.context.obj(contents.asArray()));
  return PDFPage.of(leaf, pdf.context.register(leaf), pdf);
}

/** The pixel count a PNG's header declares (width × height), or null when it is no PNG. */
function pngPixels(bytes: Uint8Array): number | null {
  if (bytes.length < 24 || bytes[0] !== 0x89 || bytes[1] !== 0x50) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(16) * view.getUint32(20);
}

async function embedImage(pdf: PDFDocument, bytes: Uint8Array, fileType: string): Promise<PDFImage | "too large" | null> {
  try {
    if (fileType === "image/png") {
      const pixels = pngPixels(bytes);
      if (pixels === null) return null;
      if (pixels > maxImagePixels) return "too large";
      return await pdf.embedPng(bytes);
    }
    return await pdf.embedJpg(bytes);
  } catch {
    return null;
  }
}

/** An image paper on a page of its own (landscape for a wide image), its name above it, scaled to fit. */
function addImagePage(pdf: PDFDocument, paper: PackPaper, image: PDFImage, fonts: Fonts): void {
  const [width, height] = image.width > image.height ? [pageSize[1], pageSize[0]] : pageSize;
  const page = pdf.addPage([width, height]);
  const captionSize = 9;
  page.drawText(pdfText(paper.name).slice(0, 120), { x: margin, y: height - margin, size: captionSize, font: fonts.regular });
  const boxWidth = width - 2 * margin;
  const boxHeight = height - 2 * margin - 2 * captionSize - 28;
  const scale = Math.min(1, boxWidth / image.width, boxHeight / image.height);
  const drawn = { width: image.width * scale, height: image.height * scale };
  page.drawImage(image, {
    x: (width - drawn.width) / 2,
    y: height - margin - 2 * captionSize - (boxHeight - drawn.height) / 2 - drawn.height,
    ...drawn,
  });
}

const logoPattern = /^data:image\/(png|jpeg|jpg);base64,([a-z0-9+/]+=*)$/i;

/** The company's logo when it is a PNG or JPEG data: URL; a remote address is never fetched, and a bad image is left out. */
async function embedLogo(pdf: PDFDocument, logoUrl: string | null): Promise<PDFImage | null> {
  const match = logoUrl ? logoPattern.exec(logoUrl) : null;
  if (!match) return null;
  const type = match[1]!.toLowerCase() === "png" ? "image/png" : "image/jpeg";
  const image = await embedImage(pdf, Buffer.from(match[2]!, "base64"), type);
  return typeof image === "string" ? null : image;
}

/** The outline (bookmarks): one entry per item, titled with its title, opening its section page. */
function addOutline(pdf: PDFDocument, entries: { title: string; page: PDFRef }[]): void {
  if (entries.length === 0) return;
  const context = pdf.context;
  const root = context.nextRef();
  const refs = entries.map(() => context.nextRef());
  entries.forEach((entry, index) => {
    const item = context.obj({ Title: PDFHexString.fromText(entry.title), Parent: root, Dest: [entry.page, "Fit"] });
    if (index > 0) item.set(PDFName.of("Prev"), refs[index - 1]!);
    if (index < refs.length - 1) item.set(PDFName.of("Next"), refs[index + 1]!);
    context.assign(refs[index]!, item);
  });
  context.assign(root, context.obj({ Type: "Outlines", First: refs[0]!, Last: refs[refs.length - 1]!, Count: refs.length }));
  pdf.catalog.set(PDFName.of("Outlines"), root);
  pdf.catalog.set(PDFName.of("PageMode"), PDFName.of("UseOutlines"));
}

/**
 * "Page n of N" at the foot of every page. Drawing on a paper's page wraps its content in a saved graphics state
 * first (pdf-lib normalizes the page), so whatever transformation the paper leaves behind does not move the
 * footer. Rotated pages (only papers have them) are left unstamped.
 */
function stampPageNumbers(pdf: PDFDocument, fonts: Fonts): void {
  const pages = pdf.getPages();
  pages.forEach((page, index) => {
    if (page.getRotation().angle % 360 === 0) drawFooter(page, `Page ${index + 1} of ${pages.length}`, fonts.regular);
  });
}
