import { deflateSync } from "node:zlib";
import { PDFDocument } from "@cantoo/pdf-lib";
import { paperPdf } from "../../testing/board-pack-fixtures";
import { indirectFilterPdf, revisedPagesPdf, sharedTreePdf } from "../../testing/hostile-pdfs";
import { checkPdfBounds as check, numberedObjectsPdf as pdf, oneStreamPdf as stream } from "../../testing/pdf-bounds-fixtures";
import { encryptedMessage, indirectFilterMessage, pageTreeUncheckableMessage, pdfLimits, tooManyPagesMessage } from "./pdf-bounds";

const mebibyte = 1024 * 1024;

const pages = (limit: number) => tooManyPagesMessage(limit);

describe("what a reader makes of a PDF, which the check must not miss", () => {
  /** The pages pdf-lib finds, loading as the board pack does. */
  const readerPages = async (bytes: Buffer) =>
    (await PDFDocument.load(bytes, { password: "", updateMetadata: false, throwOnInvalidObject: false })).getPageCount();

  it("refuses a stream whose filters are named by reference (pages packed behind it, or a bomb)", async () => {
    const hidden = await indirectFilterPdf({ pages: 5000 });
    expect(await readerPages(hidden)).toBe(5000);
    expect(await check(hidden)).toBe(indirectFilterMessage);
    const limits = { ...pdfLimits, expandedBytes: 8 * mebibyte };
    expect(await check(await indirectFilterPdf({ pages: 1, bomb: 9 }), { limits })).toBe(indirectFilterMessage);
    // A reference inside the array of filters is looked up just the same.
    const inArray = stream("/Type /ObjStm /N 1 /First 4 /Filter [7 0 R]", deflateSync(Buffer.from("5 0\n<< /Type /Page >>")));
    expect(await check(inArray)).toBe(indirectFilterMessage);
  });

  it("refuses an encrypted PDF with object streams (what they pack cannot be read), and takes one without", async () => {
    // Encrypted only to restrict printing: a reader opens it with the empty password and finds its 60 pages.
    const locked = await PDFDocument.create();
    for (let n = 0; n < 60; n += 1) locked.addPage([300, 300]);
    locked.encrypt({ userPassword: "", ownerPassword: "owner-secret" });
    const packed = Buffer.from(await locked.save());
    expect(packed.includes("/Encrypt") && packed.includes("/ObjStm")).toBe(true);
    expect(await readerPages(packed)).toBe(60);
    expect(await check(packed, { limits: { ...pdfLimits, pages: 60 } })).toBe(encryptedMessage);
    // Without object streams its page tree is in plain sight: counted, and taken within the limit.
    const plain = Buffer.from(await locked.save({ useObjectStreams: false }));
    expect(plain.includes("/ObjStm")).toBe(false);
    expect(await check(plain, { limits: { ...pdfLimits, pages: 60 } })).toBeNull();
    expect(await check(plain, { limits: { ...pdfLimits, pages: 59 } })).toBe(pages(59));
    expect(await check(await paperPdf("Locked", 2, { userPassword: "s3cret" }))).toBeNull();
  });

  it("reads object streams whatever their filters, and refuses one that is not encoded at all", async () => {
    const body = "5 0 6 18\n<< /Type /Page >>\n<< /Type /Page >>\n";
    const hex = stream("/Type /ObjStm /N 2 /First 9 /Filter /ASCIIHexDecode", Buffer.from(`${Buffer.from(body).toString("hex")}>`));
    expect(await check(hex, { limits: { ...pdfLimits, pages: 1 } })).toBe(pages(1));
    expect(await check(hex, { limits: { ...pdfLimits, pages: 2 } })).toBeNull();
    expect(await check(stream("/Type /ObjStm /N 2 /First 9", Buffer.from(body)))).toBe(pageTreeUncheckableMessage);
  });

  it("refuses a file that would have the check keep more references than it may", async () => {
    const limits = { ...pdfLimits, treeEntries: 1000 };
    const kids = (count: number) =>
      pdf(["<< /Type /Catalog /Pages 2 0 R >>", `<< /Type /Pages /Kids [${"3 0 R ".repeat(count)}] /Count 1 >>`]);
    expect(await check(kids(999), { limits: { ...limits, pages: 5000 } })).toBeNull();
    expect(await check(kids(1001), { limits: { ...limits, pages: 5000 } })).toBe(pageTreeUncheckableMessage);
    // A header that claims more objects than may be kept.
    const header = Array.from({ length: 2000 }, (_, n) => `${n + 10} 0`).join(" ");
    const claims = stream(
      `/Type /ObjStm /N 2000 /First ${header.length + 1} /Filter /FlateDecode`,
      deflateSync(Buffer.from(`${header}\nnull`)),
    );
    expect(await check(claims, { limits })).toBe(pageTreeUncheckableMessage);
    expect(await check(claims)).toBeNull();
  });

  it("counts a page tree's shared nodes once for each reference, as a reader walks them", async () => {
    for (const packed of [false, true]) {
      const shared = sharedTreePdf({ levels: 3, fanOut: 50, packed });
      expect(await readerPages(shared), `packed: ${packed}`).toBe(125_000);
      expect(await check(shared), `packed: ${packed}`).toBe(pages(2000));
      expect(await check(sharedTreePdf({ levels: 2, fanOut: 40, packed })), `packed: ${packed}`).toBeNull();
      expect(await check(sharedTreePdf({ levels: 2, fanOut: 45, packed })), `packed: ${packed}`).toBe(pages(2000));
    }
    // A node's /Kids may be an array object of its own.
    const byReference = pdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids 3 0 R /Count 1 >>",
      `[${"4 0 R ".repeat(3000)}]`,
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
    ]);
    expect(await readerPages(byReference)).toBe(3000);
    expect(await check(byReference)).toBe(pages(2000));
    // A tree that lists itself never ends.
    const loop = pdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Pages /Kids [2 0 R] /Count 1 >>",
    ]);
    expect(await check(loop)).toBe(pages(2000));
  });

  it("counts a page revised in an incremental update once", { timeout: 30_000 }, async () => {
    const revised = revisedPagesPdf(1200);
    expect(await readerPages(revised)).toBe(1200);
    expect(await check(revised)).toBeNull();
    expect(await check(revised, { limits: { ...pdfLimits, pages: 1199 } })).toBe(pages(1199));
  });
});
