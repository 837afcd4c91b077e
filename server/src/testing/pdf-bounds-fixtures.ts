import { PdfBoundsCheck, pdfLimits } from "../features/documents/pdf-bounds";

/* Small PDFs written out by hand for the bounds check's tests, the filter encoders they need, and the check run over them. */

/** Runs the check over `bytes` in pieces of `piece` bytes; answers the refusal's message, or null when accepted. */
export async function checkPdfBounds(bytes: Buffer, { piece = 64 * 1024, limits = pdfLimits } = {}): Promise<string | null> {
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

/** Objects numbered from 1, laid out as a file (no cross-reference table). */
export const numberedObjectsPdf = (objects: string[]) =>
  Buffer.from(
    `%PDF-1.7\n${objects.map((body, n) => `${n + 1} 0 obj\n${body}\nendobj\n`).join("")}trailer\n<< /Root 1 0 R >>\n%%EOF\n`,
    "latin1",
  );

/** A file of one stream object: its dictionary (with /Length added) and data. */
export const oneStreamPdf = (dict: string, data: Buffer) =>
  Buffer.concat([
    Buffer.from(`%PDF-1.7\n1 0 obj\n<< ${dict} /Length ${data.length} >>\nstream\r\n`, "latin1"),
    data,
    Buffer.from("\r\nendstream\nendobj\n%%EOF\n"),
  ]);

/** ASCII base-85 text for `bytes` (without its `~>`). */
export function toAscii85(bytes: Buffer): string {
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
export function zeroRuns(tables: number): number[] {
  const codes: number[] = [];
  for (let table = 0; table < tables; table += 1) {
    codes.push(256, 0);
    for (let code = 258; code < 4095; code += 1) codes.push(code);
  }
  return [...codes, 257];
}

/** Plain LZW compression (the table cleared when full), as codes. */
export function lzwEncode(bytes: Buffer): number[] {
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
export function lzwCodes(codes: number[]): Buffer {
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
