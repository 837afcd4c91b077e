import { constants, deflateSync, inflateSync } from "node:zlib";
import { paperPdf } from "../../testing/board-pack-fixtures";
import { blankPagesPdf, inflationBombPdf, manyPagesPdf, zerosDeflated } from "../../testing/hostile-pdfs";
import {
  checkPdfBounds as check,
  lzwCodes,
  lzwEncode,
  numberedObjectsPdf as pdf,
  oneStreamPdf as stream,
  toAscii85,
  zeroRuns,
} from "../../testing/pdf-bounds-fixtures";
import { samplePdf } from "../../testing/sample-files";
import { expandsTooFarMessage, objectStreamsTooLargeMessage, pdfLimits, tooManyPagesMessage } from "./pdf-bounds";

const mebibyte = 1024 * 1024;

const pages = (limit: number) => tooManyPagesMessage(limit);

describe("the bounds an uploaded PDF is held to", () => {
  it("accepts ordinary PDFs: the samples, a broken one, text, and exactly the page limit", async () => {
    expect(await check(samplePdf())).toBeNull();
    expect(await check(samplePdf(300_000))).toBeNull();
    expect(await check(Buffer.from("%PDF-1.7\n<< garbage >> stream \x01\x02\n%%EOF\n", "latin1"))).toBeNull();
    expect(await check(await paperPdf("Paper", 3))).toBeNull();
    // Thousands of small streams (a content stream a page), each ended before the next begins.
    const thick = await paperPdf("Thick", 2000);
    expect(await check(thick)).toBeNull();
    expect(await check(thick, { piece: thick.length })).toBeNull();
    expect(await check(thick, { piece: 1000 })).toBeNull();
    const five = await blankPagesPdf(5);
    expect(await check(five, { limits: { ...pdfLimits, pages: 5 } })).toBeNull();
    expect(await check(five, { limits: { ...pdfLimits, pages: 4 } })).toBe(pages(4));
  });

  it("counts pages held in compressed object streams, in any size of piece", async () => {
    // Page objects only inside object streams, and a page tree that claims one page.
    const six = manyPagesPdf({ pages: 6, layout: "objectStreams" });
    expect(six.includes("/Type /Page ")).toBe(false);
    for (const piece of [1, 7, 4096, six.length]) {
      expect(await check(six, { piece, limits: { ...pdfLimits, pages: 5 } }), `pieces of ${piece}`).toBe(pages(5));
      expect(await check(six, { piece, limits: { ...pdfLimits, pages: 6 } }), `pieces of ${piece}`).toBeNull();
    }
  });

  it("refuses 100,000 pages however they are held or disguised", async () => {
    for (const layout of ["objects", "objectStreams", "sharedPage"] as const) {
      expect(await check(manyPagesPdf({ layout })), layout).toBe(pages(2000));
    }
    const limits = { ...pdfLimits, pages: 2 };
    const kids = "<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>";
    // Escaped names, comments and no spaces: still /Type /Page to a reader.
    expect(
      await check(pdf(["<< /Type /Catalog >>", kids, "<</Type/Page>>", "<< /Typ#65 /P#61ge >>", "<< /Type % note\n /Page >>"]), { limits }),
    ).toBe(pages(2));
    // /Pages nodes are not pages; a comment's words do not count.
    expect(
      await check(
        pdf([
          "<< /Type /Pages /Kids [2 0 R] /Count 2 >>",
          "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
          "<< /Type /Page >>",
          "<< /Type /Page >>",
        ]),
        { limits },
      ),
    ).toBeNull();
    // The tree's own count, however few page objects there are.
    expect(await check(pdf(["<< /Type /Pages /Count 3 /Kids [2 0 R] >>", "<< /Type /Page >>"]), { limits })).toBe(pages(2));
    // Another dictionary's /Count (an outline's) is no page count.
    expect(await check(pdf(["<< /Type /Outlines /Count 3 >>", "<< /Type /Page >>"]), { limits })).toBeNull();
  });

  it("refuses streams that expand past the limit, whatever their filters or stated length", async () => {
    const limits = { ...pdfLimits, expandedBytes: 8 * mebibyte };
    const deflated = await zerosDeflated(9);
    expect(inflateSync(deflated).length).toBe(9 * mebibyte);
    expect(await check(stream("/Filter /FlateDecode", deflated), { limits })).toBe(expandsTooFarMessage(8 * mebibyte));
    expect(await check(stream("/Filter /FlateDecode", await zerosDeflated(8)), { limits })).toBeNull();
    // A lying /Length, no /Filter, or a filter chain: the data is inflated all the same.
    expect(await check(Buffer.concat([Buffer.from("%PDF-1.7\n<< /Length 3 >>\nstream\n"), deflated]), { limits })).toBe(
      expandsTooFarMessage(8 * mebibyte),
    );
    const ascii85 = Buffer.from(`${toAscii85(deflated)}~>`, "latin1");
    expect(await check(stream("/Filter [/A85 /Fl]", ascii85), { limits })).toBe(expandsTooFarMessage(8 * mebibyte));
    const hex = Buffer.from(`${deflated.toString("hex")}>`, "latin1");
    expect(await check(stream("/Filter [/ASCIIHexDecode /FlateDecode]", hex), { limits })).toBe(expandsTooFarMessage(8 * mebibyte));
    // A comment between the dictionary and its stream (names in it too) still leaves the stream its filters.
    const commented = Buffer.concat([
      Buffer.from(`%PDF-1.7\n1 0 obj\n<< /Filter [/AHx /Fl] /Length ${hex.length} >> % /Filter /Other\nstream\n`, "latin1"),
      hex,
      Buffer.from("\nendstream\nendobj\n"),
    ]);
    expect(await check(commented, { limits })).toBe(expandsTooFarMessage(8 * mebibyte));
    // Run-length: 2 bytes for 128.
    const runs = Buffer.alloc(2 * 65 * 1024, 0x81);
    expect(await check(stream("/Filter /RunLengthDecode", runs), { limits })).toBe(expandsTooFarMessage(8 * mebibyte));

    // Streams that break after inflating a while still count: a reader inflates them as far as the break.
    const broken = Buffer.concat([
      deflateSync(Buffer.alloc(900 * 1024), { finishFlush: constants.Z_SYNC_FLUSH }),
      Buffer.from([0xff, 0xff]),
    ]);
    const brokenStreams = (count: number) =>
      Buffer.concat([
        Buffer.from("%PDF-1.7\n"),
        ...Array.from({ length: count }, () =>
          Buffer.concat([Buffer.from("<< /Filter /FlateDecode >>\nstream\n"), broken, Buffer.from("\nendstream\n")]),
        ),
      ]);
    expect(await check(brokenStreams(10), { limits })).toBe(expandsTooFarMessage(8 * mebibyte));
    expect(await check(brokenStreams(2), { limits })).toBeNull();
    // LZW: codes for ever longer runs of zeros (about 7 MiB a table), counted without being built.
    expect(await check(stream("/Filter /LZWDecode", lzwCodes(zeroRuns(2))), { limits })).toBe(expandsTooFarMessage(8 * mebibyte));
    expect(await check(stream("/Filter /LZWDecode", lzwCodes(zeroRuns(1))), { limits })).toBeNull();

    expect(await check(await inflationBombPdf())).toBe(expandsTooFarMessage(512 * mebibyte));
  });

  it("inflates object streams into the page count under the same budget", async () => {
    const body = Array.from({ length: 3 }, () => "<< /Type /Page >>").join("\n");
    const objectStream = stream("/Type /ObjStm /N 3 /First 0 /Filter /FlateDecode", deflateSync(Buffer.from(body)));
    expect(await check(objectStream, { limits: { ...pdfLimits, pages: 2 } })).toBe(pages(2));
    expect(await check(objectStream, { limits: { ...pdfLimits, pages: 3 } })).toBeNull();
    const lzwStream = stream("/Type /ObjStm /N 3 /First 0 /Filter [/LZWDecode]", lzwCodes(lzwEncode(Buffer.from(`${body} `.repeat(200)))));
    expect(await check(lzwStream, { limits: { ...pdfLimits, pages: 599 } })).toBe(pages(599));
    expect(await check(lzwStream, { limits: { ...pdfLimits, pages: 600 } })).toBeNull();
    // Reading packed objects costs this thread: past their own bound (far below the expansion's), the file is refused.
    const packed = (mebibytes: number) =>
      stream("/Type /ObjStm /N 1 /First 0 /Filter /FlateDecode", deflateSync(Buffer.alloc(mebibytes * mebibyte, "1 ")));
    expect(await check(packed(33))).toBe(objectStreamsTooLargeMessage(32 * mebibyte));
    expect(await check(packed(31))).toBeNull();
  });

  it("refuses a file whose streams never end, one inside the other", async () => {
    // A zlib header and a stored block of 65,535 bytes: each stream's data swallows the streams after it.
    const unending = Buffer.from([0x78, 0x01, 0x00, 0xff, 0xff, 0x00, 0x00]);
    const file = Buffer.concat([
      Buffer.from("%PDF-1.7\n"),
      ...Array.from({ length: 40 }, () => Buffer.concat([Buffer.from("<< /Filter /FlateDecode >>\nstream\n"), unending])),
    ]);
    expect(await check(file)).toBe("This PDF's streams could not be checked");
    expect(await check(file.subarray(0, file.indexOf("stream", 0) + 200))).toBeNull();
  });
});
