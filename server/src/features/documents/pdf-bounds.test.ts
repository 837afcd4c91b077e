import { constants, deflateSync, inflateSync } from "node:zlib";
import { PDFDocument } from "@cantoo/pdf-lib";
import { paperPdf } from "../../testing/board-pack-fixtures";
import {
  blankPagesPdf,
  indirectFilterPdf,
  inflationBombPdf,
  manyPagesPdf,
  revisedPagesPdf,
  sharedTreePdf,
  zerosDeflated,
} from "../../testing/hostile-pdfs";
import { samplePdf } from "../../testing/sample-files";
import {
  encryptedMessage,
  expandsTooFarMessage,
  indirectFilterMessage,
  objectStreamsTooLargeMessage,
  pageTreeUncheckableMessage,
  PdfBoundsCheck,
  pdfLimits,
  tooManyPagesMessage,
} from "./pdf-bounds";

const mebibyte = 1024 * 1024;

/** Runs the check over `bytes` in pieces of `piece` bytes; answers the refusal's message, or null when accepted. */
async function check(bytes: Buffer, { piece = 64 * 1024, limits = pdfLimits } = {}): Promise<string | null> {
  const bounds = new PdfBoundsCheck(limits);
  try {
    for (let at = 0; at < bytes.length; at += piece) await bounds.write(bytes.subarray(at, at + piece));
    await bounds.end();
    return null;
  } catch (error) {
    return (error as { status?: number; message: string }).status === 400 ? (error as Error).message : `unexpected: ${String(error)}`;
  } finally {
    bounds.abort();
  }
}

const pages = (limit: number) => tooManyPagesMessage(limit);
const pdf = (objects: string[]) =>
  Buffer.from(
    `%PDF-1.7\n${objects.map((body, n) => `${n + 1} 0 obj\n${body}\nendobj\n`).join("")}trailer\n<< /Root 1 0 R >>\n%%EOF\n`,
    "latin1",
  );
const stream = (dict: string, data: Buffer) =>
  Buffer.concat([
    Buffer.from(`%PDF-1.7\n1 0 obj\n<< ${dict} /Length ${data.length} >>\nstream\r\n`, "latin1"),
    data,
    Buffer.from("\r\nendstream\nendobj\n%%EOF\n"),
  ]);

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

function toAscii85(bytes: Buffer): string {
  let out = "";
  for (let at = 0; at < bytes.length; at += 4) {
    const group = Buffer.alloc(4);
    bytes.copy(group, 0, at, at + 4);
    let value = group.readUInt32BE(0);
    const digits: string[] = [];
    for (let n = 0; n < 5; n += 1) {
      digits.unshift(String.fromCharCode(0x21 + (value % 85)));
      value = Math.floor(value / 85);
    }
    out += digits.slice(0, Math.min(5, bytes.length - at + 1)).join("");
  }
  return out;
}

/** LZW codes (256 clears the table) for runs of zeros of length 1, 2, 3, ... as long as a table lasts, `tables` times. */
function zeroRuns(tables: number): number[] {
  const codes: number[] = [];
  for (let table = 0; table < tables; table += 1) {
    codes.push(256, 0);
    for (let code = 258; code < 4095; code += 1) codes.push(code);
  }
  return [...codes, 257];
}

/** Plain LZW compression (the table cleared when full), as codes. */
function lzwEncode(bytes: Buffer): number[] {
  const codes: number[] = [256];
  let table = new Map<string, number>();
  let next = 258;
  let current = "";
  for (const byte of bytes) {
    const extended = current + String.fromCharCode(byte);
    if (current === "" || (extended.length === 1 ? true : table.has(extended))) {
      current = extended;
      continue;
    }
    codes.push(current.length === 1 ? current.charCodeAt(0) : table.get(current)!);
    table.set(extended, next);
    next += 1;
    current = String.fromCharCode(byte);
    if (next >= 4094) {
      codes.push(current.charCodeAt(0), 256);
      table = new Map();
      next = 258;
      current = "";
    }
  }
  if (current) codes.push(current.length === 1 ? current.charCodeAt(0) : table.get(current)!);
  return [...codes, 257];
}

/** Packs codes into bits, each as wide as a PDF reader expects it at that point (9 to 12 bits, one code early). */
function lzwCodes(codes: number[]): Buffer {
  const out: number[] = [];
  let bits = 0;
  let bitCount = 0;
  let width = 9;
  let next = 258;
  let first = true;
  for (const code of codes) {
    bits = (bits << width) | code;
    bitCount += width;
    while (bitCount >= 8) {
      out.push((bits >>> (bitCount - 8)) & 0xff);
      bitCount -= 8;
    }
    bits &= (1 << bitCount) - 1;
    if (code === 256) {
      width = 9;
      next = 258;
      first = true;
      continue;
    }
    if (!first && next < 4096) next += 1;
    first = false;
    while (width < 12 && next + 1 >= 1 << width) width += 1;
  }
  if (bitCount > 0) out.push((bits << (8 - bitCount)) & 0xff);
  return Buffer.from(out);
}
