import { randomBytes } from "node:crypto";
import { constants, createDeflateRaw, deflateSync } from "node:zlib";
import { PDFDocument } from "@cantoo/pdf-lib";

/**
 * PDFs that would cost a reader dearly, made by the tests themselves (never stored as files): one whose Flate
 * stream inflates to gigabytes, ones with a hundred thousand pages (told plainly, or hidden behind lies), and an
 * honest one at the page limit.
 */

const mebibyte = 1024 * 1024;

/** Numbered objects laid out as a PDF file (no cross-reference table: readers rebuild one, and no check needs it). */
function pdfFile(objects: (string | Buffer)[], root = 1): Buffer {
  const parts: Buffer[] = [Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  objects.forEach((body, index) => {
    parts.push(Buffer.from(`${index + 1} 0 obj\n`, "latin1"), typeof body === "string" ? Buffer.from(body, "latin1") : body);
    parts.push(Buffer.from("\nendobj\n", "latin1"));
  });
  parts.push(Buffer.from(`trailer\n<< /Root ${root} 0 R /Size ${objects.length + 1} >>\n%%EOF\n`, "latin1"));
  return Buffer.concat(parts);
}

/** A stream object's body: its dictionary (with /Length added) and data. */
function streamObject(dict: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, "latin1"),
    data,
    Buffer.from("\nendstream", "latin1"),
  ]);
}

/**
 * zlib data that inflates to `mebibytes` MiB of zeros, built without deflating them all: deflate's output for
 * one more MiB of zeros (after a sync flush) is the same bytes every time, so it is repeated, then the stream is
 * closed and its Adler-32 (known for zeros) appended. About 1 KiB per MiB.
 */
export async function zerosDeflated(mebibytes: number): Promise<Buffer> {
  const deflater = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflater.on("data", (bytes: Buffer) => out.push(bytes));
  const flushed = async () => {
    await new Promise<void>((resolve) =>
      deflater.write(Buffer.alloc(mebibyte), () => deflater.flush(constants.Z_SYNC_FLUSH, () => resolve())),
    );
    return Buffer.concat(out.splice(0));
  };
  const first = await flushed();
  const next = await flushed();
  if (!next.equals(await flushed())) throw new Error("deflate's output for zeros does not repeat");
  deflater.destroy();
  const adler = Buffer.alloc(4);
  // Adler-32 of n zeros: a = 1, b = n (mod 65521).
  adler.writeUInt32BE(((((mebibytes * mebibyte) % 65521) << 16) | 1) >>> 0);
  return Buffer.concat([
    Buffer.from([0x78, 0xda]),
    first,
    ...Array.from({ length: mebibytes - 1 }, () => next),
    // An empty final block with fixed codes.
    Buffer.from([0x03, 0x00]),
    adler,
  ]);
}

/**
 * A one-page PDF of `size` bytes whose page's content stream inflates to `expandsTo` bytes of zeros, padded with
 * an incompressible "image" (as a scanned paper would be). By default about 20 MiB inflating to 2 GiB.
 */
export async function inflationBombPdf({ expandsTo = 2048 * mebibyte, size = 20 * mebibyte - 1024 } = {}): Promise<Buffer> {
  if (expandsTo % mebibyte !== 0) throw new Error("expandsTo must be whole mebibytes");
  const bomb = await zerosDeflated(expandsTo / mebibyte);
  const objects: (string | Buffer)[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /Im1 5 0 R >> >> >>",
    streamObject("/Filter /FlateDecode", bomb),
  ];
  const withoutImage = pdfFile([...objects, streamObject("/Type /XObject /Subtype /Image /Filter /DCTDecode", Buffer.alloc(0))]);
  // Room left for the image's /Length digits; the few bytes short are line feeds after the end.
  const image = randomBytes(Math.max(0, size - withoutImage.length - 16));
  const file = pdfFile([...objects, streamObject("/Type /XObject /Subtype /Image /Filter /DCTDecode", image)]);
  if (file.length > size) throw new Error(`the bomb needs at least ${file.length} bytes`);
  return Buffer.concat([file, Buffer.alloc(size - file.length, 0x0a)]);
}

export interface ManyPagesOptions {
  pages?: number;
  /**
   * How the pages are held: `objects`, one page object each, plainly; `objectStreams`, the page objects inside
   * compressed object streams, while the page tree claims one page; `sharedPage`, one page object that the page
   * tree lists `pages` times, while claiming one page.
   */
  layout?: "objects" | "objectStreams" | "sharedPage";
}

/** A PDF with 100,000 pages (by default) that all share one small content stream; a few MiB at most. */
export function manyPagesPdf({ pages = 100_000, layout = "objects" }: ManyPagesOptions = {}): Buffer {
  const content = streamObject("", Buffer.from("BT /F1 12 Tf 72 720 Td (A page) Tj ET", "latin1"));
  const page = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R >>";
  const firstPage = 4;
  const references = (count: number, first: number, step: number) =>
    Array.from({ length: count }, (_, n) => `${first + n * step} 0 R`).join(" ");
  if (layout === "sharedPage") {
    return pdfFile([
      "<< /Type /Catalog /Pages 2 0 R >>",
      `<< /Type /Pages /Kids [${references(pages, firstPage, 0)}] /Count 1 >>`,
      content,
      page,
    ]);
  }
  if (layout === "objects") {
    const kids = references(pages, firstPage, 1);
    return pdfFile([
      "<< /Type /Catalog /Pages 2 0 R >>",
      `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
      content,
      ...Array.from({ length: pages }, () => page),
    ]);
  }
  // Object streams of 10,000 pages each, after the page objects' numbers.
  const perStream = 10_000;
  const streams: Buffer[] = [];
  for (let start = 0; start < pages; start += perStream) {
    const count = Math.min(perStream, pages - start);
    const offsets: string[] = [];
    let body = "";
    for (let n = 0; n < count; n += 1) {
      offsets.push(`${firstPage + start + n} ${body.length}`);
      body += `${page}\n`;
    }
    const header = `${offsets.join(" ")}\n`;
    const data = deflateSync(Buffer.from(header + body, "latin1"));
    streams.push(streamObject(`/Type /ObjStm /N ${count} /First ${header.length} /Filter /FlateDecode`, data));
  }
  // The numbers from firstPage on are the pages (inside the streams); the streams themselves come after them.
  const objects: (string | Buffer)[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${firstPage} 0 R] /Count 1 >>`,
    content,
  ];
  const file = pdfFile(objects);
  const trailerAt = file.lastIndexOf(Buffer.from("trailer", "latin1"));
  const streamObjects = streams.map((stream, n) =>
    Buffer.concat([Buffer.from(`${firstPage + pages + n} 0 obj\n`, "latin1"), stream, Buffer.from("\nendobj\n", "latin1")]),
  );
  return Buffer.concat([file.subarray(0, trailerAt), ...streamObjects, file.subarray(trailerAt)]);
}

/** An honest PDF of `pages` blank pages, as pdf-lib writes it (its page objects inside object streams). */
export async function blankPagesPdf(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (let n = 0; n < pages; n += 1) pdf.addPage([300, 300]);
  return Buffer.from(await pdf.save());
}

/** Object numbers and bodies packed into one object stream (a header of number-offset pairs, then the bodies). */
function objectStream(objects: [number, string][], dict = "/Filter /FlateDecode"): Buffer {
  const offsets: string[] = [];
  let body = "";
  for (const [number, text] of objects) {
    offsets.push(`${number} ${body.length}`);
    body += `${text}\n`;
  }
  const header = `${offsets.join(" ")}\n`;
  return streamObject(
    `/Type /ObjStm /N ${objects.length} /First ${header.length} ${dict}`,
    deflateSync(Buffer.from(header + body, "latin1")),
  );
}

/**
 * A page tree whose nodes list the same node many times over: `levels` levels of `fanOut` references each above
 * one page, while the root claims one page. A reader walks each reference: `fanOut ** levels` pages. The nodes and
 * the page are plain objects, or packed in an object stream.
 */
export function sharedTreePdf({ levels = 3, fanOut = 50, packed = false } = {}): Buffer {
  // 1 catalog, 2..levels+1 the nodes (2 the root), then the page and its content.
  const page = levels + 2;
  const nodes: [number, string][] = Array.from({ length: levels }, (_, level) => {
    const kid = level === levels - 1 ? page : level + 3;
    return [level + 2, `<< /Type /Pages /Kids [${Array.from({ length: fanOut }, () => `${kid} 0 R`).join(" ")}] /Count 1 >>`];
  });
  const leaf: [number, string] = [page, `<< /Type /Page /Parent ${levels + 1} 0 R /MediaBox [0 0 612 792] >>`];
  if (!packed) return pdfFile(["<< /Type /Catalog /Pages 2 0 R >>", ...[...nodes, leaf].map(([, text]) => text)]);
  return pdfFile([
    "<< /Type /Catalog /Pages 2 0 R >>",
    ...Array.from({ length: levels + 1 }, () => "null"),
    objectStream([...nodes, leaf]),
  ]);
}

/**
 * A PDF of `pages` plain page objects, then an incremental update that writes every page object (and the page
 * tree) again, as annotating or signing a file does: still `pages` pages to a reader.
 */
export function revisedPagesPdf(pages: number): Buffer {
  const file = manyPagesPdf({ pages, layout: "objects" });
  const firstPage = 4;
  const kids = Array.from({ length: pages }, (_, n) => `${firstPage + n} 0 R`).join(" ");
  const update = [
    `2 0 obj\n<< /Type /Pages /Kids [${kids}] /Count ${pages} >>\nendobj\n`,
    ...Array.from(
      { length: pages },
      (_, n) => `${firstPage + n} 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Rotate 90 >>\nendobj\n`,
    ),
    `trailer\n<< /Root 1 0 R /Size ${firstPage + pages} >>\n%%EOF\n`,
  ].join("");
  return Buffer.concat([file, Buffer.from(update, "latin1")]);
}

/**
 * `pages` page objects and their page tree packed in an object stream whose /Filter is a reference to an array of
 * filters defined elsewhere (its data hex-encoded after it is deflated), while the page tree in the file claims one
 * page. With
 * `bomb`, the page's content is such a stream too, inflating to `bomb` MiB.
 */
export async function indirectFilterPdf({ pages = 5000, bomb = 0 } = {}): Promise<Buffer> {
  const firstPage = 5;
  const page = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R >>";
  const hexOf = (data: Buffer) => Buffer.from(`${data.toString("hex")}>`, "latin1");
  const kids = Array.from({ length: pages }, (_, n) => `${firstPage + n} 0 R`).join(" ");
  // The page tree that lists them is packed too; in the file itself it claims one page.
  const packed = objectStream(
    [
      [2, `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`],
      ...Array.from({ length: pages }, (_, n): [number, string] => [firstPage + n, page]),
    ],
    "/Filter 4 0 R",
  );
  // The object stream as objectStream() makes it, its deflated data hex-encoded.
  const dataStart = packed.indexOf("stream\n") + "stream\n".length;
  const data = packed.subarray(dataStart, packed.length - "\nendstream".length);
  const dict = packed.subarray(0, packed.indexOf("/Length")).toString("latin1");
  const content = bomb > 0 ? hexOf(await zerosDeflated(bomb)) : hexOf(deflateSync(Buffer.from("BT ET")));
  return pdfFile([
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${firstPage} 0 R] /Count 1 >>`,
    streamObject("/Filter 4 0 R", content),
    "[/ASCIIHexDecode /FlateDecode]",
    ...Array.from({ length: pages }, () => "null"),
    streamObject(dict.replace(/^<< /, "").trimEnd(), hexOf(data)),
  ]);
}
