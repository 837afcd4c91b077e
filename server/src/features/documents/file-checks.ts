import { createHash } from "node:crypto";
import {
  acceptedFileTypes,
  fileTooLargeMessage,
  maxFileBytes,
  unsupportedFileTypeMessage,
  type AcceptedExtension,
} from "../../../../shared/documents";
import { HttpError } from "../../http/errors";
import { PdfBoundsCheck } from "./pdf-bounds";

/** How many leading bytes the content detector sees before any byte is stored. */
const headBytes = 4100;
/** A Word document is a ZIP archive holding this entry (its name appears in the entry's header). */
const wordEntry = Buffer.from("word/document.xml");

/** What content detection must answer for each extension (text has no magic bytes: it is checked as UTF-8). */
const expectedDetection: Record<AcceptedExtension, readonly string[]> = {
  pdf: ["pdf"],
  png: ["png"],
  jpg: ["jpg"],
  jpeg: ["jpg"],
  gif: ["gif"],
  doc: ["cfb"],
  docx: ["docx", "zip"],
  txt: [],
};

export const unsupportedType = () => new HttpError(415, unsupportedFileTypeMessage);
export const tooLarge = () => new HttpError(413, fileTooLargeMessage);

export interface InspectedFile {
  /** The type stored and served. */
  fileType: string;
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  /** A PDF's pages, from its page tree as checked on the way; null for any other file. */
  pages: number | null;
}

/**
 * Passes a file's bytes through as they arrive, checking them on the way: the first bytes must be what the
 * extension says (magic bytes), a `.txt` must be UTF-8 without NUL bytes, a `.docx` a ZIP holding
 * `word/document.xml`, the whole at most 20 MiB, and a PDF within the bounds of pdf-bounds.ts (its pages, and
 * what its streams inflate to; 400 naming the bound). A failed check throws (415, 413 or 400) from inside the
 * iteration, so whoever is storing the bytes stops and discards what it has.
 *
 * `extension` is the claimed type when it is known before the bytes (then the first bytes are checked
 * before any byte is passed on, and a text file fails at its first bad byte). It is null when the type is
 * only named after the file (a JSON body whose `content` comes before its `name`): then the facts are
 * gathered on the way and `result` checks them against the extension it is given.
 * `result` is filled in once the source has been read to its end without a failure.
 */
export function inspectFile(
  source: AsyncIterable<Buffer>,
  extension: AcceptedExtension | null,
): { bytes: AsyncIterable<Buffer>; result: (claimed?: AcceptedExtension) => InspectedFile } {
  let facts:
    | { detected: string | undefined; isText: boolean; sawWordEntry: boolean; size: number; sha256: string; pages: number | null }
    | undefined;
  async function* checked(): AsyncGenerator<Buffer> {
    let size = 0;
    const hash = createHash("sha256");
    let head: Buffer[] = [];
    let headLength = 0;
    let headChecked = false;
    let detected: string | undefined;
    // Every file is read as text until it fails to be (cheap: a binary file fails within its first bytes).
    const decoder = extension === null || extension === "txt" ? new TextDecoder("utf-8", { fatal: true }) : null;
    let isText = decoder !== null;
    let sawWordEntry = false;
    let tail = Buffer.alloc(0);

    const checkText = (chunk: Buffer, last: boolean) => {
      if (!decoder || !isText) return;
      let valid = !chunk.includes(0);
      if (valid) {
        try {
          decoder.decode(chunk, { stream: !last });
        } catch {
          valid = false;
        }
      }
      if (valid) return;
      if (extension === "txt") throw unsupportedType();
      isText = false;
    };
    const scanForWordEntry = (chunk: Buffer) => {
      if ((extension !== null && extension !== "docx") || sawWordEntry) return;
      const window = tail.length ? Buffer.concat([tail, chunk]) : chunk;
      if (window.includes(wordEntry)) sawWordEntry = true;
      tail = Buffer.from(window.subarray(Math.max(0, window.length - wordEntry.length + 1)));
    };
    // A PDF (by its bytes, whatever it claims) is also held to bounds on its pages and on what it inflates to.
    let pdf = null as PdfBoundsCheck | null;
    const checkHead = async (bytes: Buffer) => {
      // Loaded at the first upload, not at start-up.
      const { fileTypeFromBuffer } = await import("file-type");
      detected = (await fileTypeFromBuffer(bytes))?.ext;
      if (extension !== null) assertDetected(detected, extension);
      if (detected === "pdf") pdf = new PdfBoundsCheck();
    };

    try {
      for await (const received of source) {
        const chunk = Buffer.isBuffer(received) ? received : Buffer.from(received);
        size += chunk.length;
        if (size > maxFileBytes) throw tooLarge();
        checkText(chunk, false);
        scanForWordEntry(chunk);
        hash.update(chunk);
        if (headChecked) {
          // Checked before it is passed on: a refused file has none of its bytes stored past this point.
          await pdf?.write(chunk);
          yield chunk;
          continue;
        }
        head.push(chunk);
        headLength += chunk.length;
        if (headLength >= headBytes) {
          const whole = Buffer.concat(head, headLength);
          head = [];
          await checkHead(whole);
          headChecked = true;
          await pdf?.write(whole);
          yield whole;
        }
      }
      if (!headChecked) {
        const whole = Buffer.concat(head, headLength);
        if (whole.length === 0) throw new HttpError(400, "The file is empty");
        await checkHead(whole);
        await pdf?.write(whole);
        if (whole.length > 0) yield whole;
      }
      await pdf?.end();
    } finally {
      // A failure anywhere (or a consumer that stopped reading) leaves no inflater running.
      pdf?.abort();
    }
    checkText(Buffer.alloc(0), true);
    if (extension === "docx" && !sawWordEntry) throw unsupportedType();
    facts = { detected, isText, sawWordEntry, size, sha256: hash.digest("hex"), pages: (pdf as PdfBoundsCheck | null)?.pages ?? null };
  }
  return {
    bytes: checked(),
    result: (claimed = extension ?? undefined) => {
      if (!facts) throw new Error("the file was not read to its end");
      if (!claimed) throw new Error("the file's type was never claimed");
      // Checked again against the final claim: the same one (already passed) or one named after the bytes.
      assertDetected(facts.detected, claimed);
      if (claimed === "txt" && !facts.isText) throw unsupportedType();
      if (claimed === "docx" && !facts.sawWordEntry) throw unsupportedType();
      const fileType = acceptedFileTypes[claimed];
      return { fileType, size: facts.size, sha256: facts.sha256, pages: fileType === "application/pdf" ? facts.pages : null };
    },
  };
}

/** Text is whatever the detector does not recognise; anything it does recognise is not text. */
function assertDetected(detected: string | undefined, extension: AcceptedExtension): void {
  const expected = expectedDetection[extension];
  if (expected.length === 0 ? detected !== undefined : !detected || !expected.includes(detected)) throw unsupportedType();
}
