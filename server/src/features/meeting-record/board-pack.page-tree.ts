import { PDFDict, PDFName, PDFNumber, type PDFDocument, type PDFRef } from "@cantoo/pdf-lib";

/** Pages under one node of the pack's page tree. */
const pagesPerNode = 16;

/**
 * Gives the pack's page tree a level of nodes of 16 pages each, written at the end of the file. A reader that fetches
 * the file in ranges (the app's reader) finds page n through the nodes' counts, fetching one node and its pages; under
 * a flat tree it would fetch every page's object before the last page, and those lie all over a merged pack.
 */
export function nestPageTree(pdf: PDFDocument): void {
  const pages = pdf.getPages();
  if (pages.length <= pagesPerNode) return;
  const context = pdf.context;
  const rootRef = pdf.catalog.get(PDFName.of("Pages")) as PDFRef;
  const root = pdf.catalog.lookup(PDFName.of("Pages"), PDFDict);
  const nodes: PDFRef[] = [];
  for (let start = 0; start < pages.length; start += pagesPerNode) {
    const group = pages.slice(start, start + pagesPerNode);
    const node = context.register(
      context.obj({ Type: "Pages", Parent: rootRef, Kids: group.map((page) => page.ref), Count: group.length }),
    );
    for (const page of group) page.node.set(PDFName.of("Parent"), node);
    nodes.push(node);
  }
  root.set(PDFName.of("Kids"), context.obj(nodes));
  root.set(PDFName.of("Count"), PDFNumber.of(pages.length));
}
