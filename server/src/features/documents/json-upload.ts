import type { Readable } from "node:stream";
import { HttpError } from "../../http/errors";
import { BodySource } from "./body-source";
import { captureString, captureValue, expectEnd, malformed, memberTextLimit, parseValue, stringPieces } from "./json-values";

/**
 * A streaming reader for the one JSON body `POST /api/documents` takes: an object whose `content` may be a
 * file as a base64 `data:` URL of up to 20 MiB. Parsing such a body whole holds the file four times over
 * (the raw body, its text, the parsed string, the decoded bytes); this reader never holds more than one
 * piece of it. Every member but `content` is small: its JSON text is gathered (up to a limit) and parsed
 * with `JSON.parse`. A `content` string that is a base64 data URL is decoded as it arrives, in multiples
 * of four characters, and handed to `onFile` as a stream of bytes, together with the members read before
 * it (those after it are only known once the file has been read). Any other `content` is an ordinary
 * string. The body is read to its end, and anything that is not JSON is refused with 400.
 */

export const dataUrlMessage = "content must be a base64 data: URL";

/** A data URL's header (`data:type;param=value;base64,`) is found within this many characters. */
const dataUrlHeaderLimit = 300;
/** Base64 text decoded at a time (a multiple of 4). */
const decodeBatch = 64 * 1024;

const notADataUrl = () => new HttpError(400, dataUrlMessage, {}, [{ path: "content", message: dataUrlMessage }]);

export interface JsonFile {
  /** The data URL's media type (lower case), or null when it names none. */
  mediaType: string | null;
  /** The members that came before `content`, parsed. */
  before: Record<string, unknown>;
  /** The decoded bytes; must be read to their end (or abandoned with a thrown error). */
  bytes: AsyncIterable<Buffer>;
}

export interface JsonUploadOptions {
  /** Bytes the body may hold at most; more is refused with 413. */
  maxBytes: number;
  /** Called when `content` is a base64 data URL; resolves once it has read (and stored) every byte. */
  onFile: (file: JsonFile) => Promise<void>;
}

/**
 * Reads the request's JSON body. Answers the parsed body (for a file, `content` holds only the data URL's
 * header, e.g. `data:application/pdf;base64,`). An empty body is `{}`, as the app's JSON parser has it.
 */
export async function readJsonUpload(stream: Readable, options: JsonUploadOptions): Promise<unknown> {
  const source = new BodySource(stream, options.maxBytes);
  try {
    await source.skipWhitespace();
    if (!(await source.fill())) return {};
    if (source.peek() !== "{") {
      // Not an object (an array, a scalar): small, parsed as it is; validation refuses it.
      const value = parseValue(await captureValue(source));
      await expectEnd(source);
      return value;
    }
    source.take();
    const members: [string, unknown][] = [];
    let sawContent = false;
    await source.skipWhitespace();
    if (await source.fillAnd("}")) {
      source.take();
    } else {
      for (;;) {
        await source.skipWhitespace();
        if (!(await source.fillAnd('"'))) throw malformed();
        const key = parseValue(await captureString(source, memberTextLimit)) as string;
        await source.skipWhitespace();
        if (!(await source.fillAnd(":"))) throw malformed();
        source.take();
        await source.skipWhitespace();
        if (!(await source.fill())) throw malformed();
        if (key === "content") {
          if (sawContent) throw new HttpError(400, "content is given twice", {}, [{ path: "content", message: "content is given twice" }]);
          sawContent = true;
        }
        if (key === "content" && source.peek() === '"') {
          members.push([key, await readContent(source, () => Object.fromEntries(members), options.onFile)]);
        } else {
          members.push([key, parseValue(await captureValue(source))]);
        }
        await source.skipWhitespace();
        if (!(await source.fill())) throw malformed();
        const next = source.take();
        if (next === "}") break;
        if (next !== ",") throw malformed();
      }
    }
    await expectEnd(source);
    // As JSON.parse does: own properties (a "__proto__" key included), the last of a repeated key winning.
    return Object.fromEntries(members);
  } finally {
    await source.release();
  }
}

/**
 * `content` (a string): a base64 data URL goes to `onFile` as bytes, and `content` becomes its header;
 * anything else is the string itself.
 */
async function readContent(
  source: BodySource,
  before: () => Record<string, unknown>,
  onFile: JsonUploadOptions["onFile"],
): Promise<string> {
  const pieces = stringPieces(source);
  let head = "";
  let ended = false;
  while (!head.includes(",") && head.length < dataUrlHeaderLimit) {
    const next = await pieces.next();
    if (next.done) {
      ended = true;
      break;
    }
    head += next.value;
  }
  if (!head.startsWith("data:")) {
    if (ended) return head;
    // Text (a note, a meeting) is held whole, so it is bounded like any other member, far below the body's limit:
    // a note of 28 MB is refused after its first MiB, not read to the end.
    const parts = [head];
    let length = head.length;
    for await (const piece of pieces) {
      length += piece.length;
      if (length > memberTextLimit) throw new HttpError(413, "A field of the request is too large");
      parts.push(piece);
    }
    return parts.join("");
  }
  const header = /^data:([^,;]*)((?:;[^,;=]+=[^,;]*)*);base64,/i.exec(head.slice(0, dataUrlHeaderLimit));
  if (!header) throw notADataUrl();
  let finished = false;
  async function* decoded(): AsyncGenerator<Buffer> {
    const first = head.slice(header![0].length);
    let pending = "";
    let total = 0;
    let padding = 0;
    const accept = (text: string) => {
      total += text.length;
      if (padding > 0) {
        padding += text.length;
        if (!/^=*$/.test(text) || padding > 2) throw notADataUrl();
        return;
      }
      const equals = text.indexOf("=");
      const payload = equals < 0 ? text : text.slice(0, equals);
      if (!/^[A-Za-z0-9+/]*$/.test(payload)) throw notADataUrl();
      if (equals >= 0) {
        padding = text.length - equals;
        if (!/^=*$/.test(text.slice(equals)) || padding > 2) throw notADataUrl();
      }
    };
    async function* texts(): AsyncGenerator<string> {
      yield first;
      if (!ended) yield* pieces;
    }
    for await (const text of texts()) {
      accept(text);
      pending += text;
      if (pending.length >= decodeBatch) {
        const whole = pending.length - (pending.length % 4);
        yield Buffer.from(pending.slice(0, whole), "base64");
        pending = pending.slice(whole);
      }
    }
    if (total % 4 === 1) throw notADataUrl();
    if (pending.length > 0) {
      const last = Buffer.from(pending, "base64");
      if (last.length > 0) yield last;
    }
    finished = true;
  }
  await onFile({ mediaType: header[1]?.toLowerCase() || null, before: before(), bytes: decoded() });
  if (!finished) throw new Error("the file's bytes were not read to their end");
  return header[0];
}
