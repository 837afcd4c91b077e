import { PDFDict, PDFDocument, PDFName, StandardFonts, type PDFArray } from "@cantoo/pdf-lib";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { nestPageTree } from "./board-pack.page-tree";

async function numberedPdf(pages: number): Promise<PDFDocument> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let number = 1; number <= pages; number += 1) pdf.addPage([200, 200]).drawText(`Page ${number}`, { x: 20, y: 100, font, size: 12 });
  return pdf;
}

describe("the pack's page tree", () => {
  it("holds the pages in nodes of 16, in order, each node counting its pages", async () => {
    const pdf = await numberedPdf(40);
    nestPageTree(pdf);
    const bytes = await pdf.save({ useObjectStreams: false });

    const saved = await PDFDocument.load(bytes);
    const root = saved.catalog.lookup(PDFName.of("Pages"), PDFDict);
    const kids = root.lookup(PDFName.of("Kids")) as PDFArray;
    expect(kids.size()).toBe(3);
    expect(kids.asArray().map((kid) => saved.context.lookup(kid, PDFDict).get(PDFName.of("Count"))?.toString())).toEqual(["16", "16", "8"]);

    const read = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
    expect(read.numPages).toBe(40);
    for (const number of [1, 16, 17, 33, 40]) {
      const content = await (await read.getPage(number)).getTextContent();
      expect(content.items.map((item) => ("str" in item ? item.str : "")).join("")).toBe(`Page ${number}`);
    }
    await read.destroy();
  });

  it("leaves a short pack's tree as it is", async () => {
    const pdf = await numberedPdf(16);
    nestPageTree(pdf);
    const kids = pdf.catalog.lookup(PDFName.of("Pages"), PDFDict).lookup(PDFName.of("Kids")) as PDFArray;
    expect(kids.size()).toBe(16);
  });
});
