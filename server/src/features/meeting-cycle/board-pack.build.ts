import type { Readable } from "node:stream";
import { ParseSpeeds, PDFDocument, PDFHexString, PDFName, StandardFonts, type PDFImage, type PDFPage, type PDFRef } from "@cantoo/pdf-lib";
import type { ServiceDeps } from "../../app-deps";
import { HttpError } from "../../http/errors";
import { documentDownload } from "../documents/documents.service";
import type { PackData, PackPaper } from "./board-pack.data";
import { drawFooter, margin, pageSize, pdfText, render, type Fonts } from "./board-pack.layout";
import { planAgenda, planCover, planSection, type PaperOutcome } from "./board-pack.pages";

type PackDeps = ServiceDeps<"db" | "clock" | "appSecret">;

/**
 * A PNG is decoded to raw pixels when embedded: one larger than this (a photograph of 5000 × 5000, or a small file
 * that claims huge dimensions) is listed instead, so a single image cannot take hundreds of megabytes.
 */
const maxImagePixels = 25_000_000;

/**
 * Builds a meeting's board pack: the cover, the agenda with each item's page number, then for each item its
 * section page followed by its PDF papers' pages and its images, one page each. The outline holds one entry per
 * item. Papers are read one at a time, in agenda order, so at most one paper's bytes are held beside the pack.
 */
export async function buildBoardPack(deps: PackDeps, data: PackData): Promise<Uint8Array> {
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
  for (const [index, item] of data.items.entries()) {
    const start = pdf.getPageCount();
    const outcomes: PaperOutcome[] = [];
    for (const paper of item.papers) outcomes.push(await addPaper(deps, pdf, paper, fonts, pdf.getPageCount() - start));
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
  // Object streams would make the file a little smaller and its writing much slower; a few hundred objects are
  // written between yields to the event loop, so other requests are not held up for the whole write.
  return pdf.save({ useObjectStreams: false, objectsPerTick: 500 });
}

/** A paper's pages (a PDF), its own page (a PNG or JPEG), or a line saying why it is not in the pack. */
async function addPaper(deps: PackDeps, pdf: PDFDocument, paper: PackPaper, fonts: Fonts, offset: number): Promise<PaperOutcome> {
  const kind =
    paper.fileType === "application/pdf" ? "pdf" : paper.fileType === "image/png" || paper.fileType === "image/jpeg" ? "image" : null;
  if (kind === null) return { kind: "attachment" };
  const bytes = await paperBytes(deps, paper.id);
  if (bytes === null) return { kind: "failed", reason: "it is no longer in the library" };
  if (kind === "image") return addImagePage(pdf, paper, bytes, fonts, offset);

  let copied: PDFPage[];
  try {
    // An empty user password opens the many PDFs that are encrypted only to restrict printing or copying.
    const source = await PDFDocument.load(bytes, { password: "", updateMetadata: false, parseSpeed: ParseSpeeds.Fast });
    // A damaged file may parse and fail only here, when its page tree is read.
    copied = await pdf.copyPages(source, source.getPageIndices());
  } catch {
    return { kind: "failed", reason: bytes.includes("/Encrypt") ? "the file is password-protected" : "the file is encrypted or damaged" };
  }
  if (copied.length === 0) return { kind: "failed", reason: "the file has no pages" };
  for (const page of copied) pdf.addPage(page);
  return { kind: "pages", offset, count: copied.length };
}

/** A paper's bytes, read from storage; null when it was deleted since the agenda was read. */
async function paperBytes(deps: PackDeps, documentId: number): Promise<Buffer | null> {
  let stream: Readable;
  try {
    stream = await (await documentDownload(deps, documentId)).open();
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return null;
    throw error;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
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
async function addImagePage(pdf: PDFDocument, paper: PackPaper, bytes: Uint8Array, fonts: Fonts, offset: number): Promise<PaperOutcome> {
  const image = await embedImage(pdf, bytes, paper.fileType);
  if (image === "too large") return { kind: "failed", reason: "the image is too large" };
  if (image === null) return { kind: "failed", reason: "the image is damaged" };
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
  return { kind: "image", offset };
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
