import { HttpError } from "../../http/errors";
import type { BodySource } from "./body-source";

// JSON's values read from a body as it arrives: the text of a small one (for JSON.parse), or a string's characters.

export const malformedJsonMessage = "Malformed JSON in request body";

/** The largest JSON text of one member other than `content` (a name, a description, an id, ...). */
export const memberTextLimit = 1024 * 1024;

export const malformed = () => new HttpError(400, malformedJsonMessage);

export function parseValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw malformed();
  }
}

export async function expectEnd(source: BodySource): Promise<void> {
  await source.skipWhitespace();
  if (await source.fill()) throw malformed();
}

/**
 * The JSON text of one value, for JSON.parse (which validates it): a string, an object or array (to its
 * matching bracket, strings inside skipped whole), or a scalar (to the next delimiter).
 */
export async function captureValue(source: BodySource): Promise<string> {
  const first = source.peek();
  if (first === '"') return captureString(source, memberTextLimit);
  const parts: string[] = [];
  let length = 0;
  const keep = (text: string) => {
    length += text.length;
    if (length > memberTextLimit) throw new HttpError(413, "A field of the request is too large");
    parts.push(text);
  };
  if (first === "{" || first === "[") {
    let depth = 0;
    for (;;) {
      if (!(await source.fill())) throw malformed();
      const char = source.peek();
      if (char === '"') {
        keep(await captureString(source, memberTextLimit));
        continue;
      }
      keep(source.take());
      if (char === "{" || char === "[") depth += 1;
      else if (char === "}" || char === "]") depth -= 1;
      if (depth === 0) return parts.join("");
    }
  }
  while ((await source.fill()) && !/[\s,}\]:]/.test(source.peek())) keep(source.takeWhile(scalarStop));
  if (length === 0) throw malformed();
  return parts.join("");
}

/** The JSON text of a string (quotes and escapes as sent), at most `limit` characters. */
export async function captureString(source: BodySource, limit: number): Promise<string> {
  const parts: string[] = [source.take()];
  let length = 1;
  let escaped = false;
  for (;;) {
    if (!(await source.fill())) throw malformed();
    if (escaped) {
      parts.push(source.take());
      escaped = false;
    } else {
      const char = source.peek();
      if (char === '"') {
        parts.push(source.take());
        return parts.join("");
      }
      if (char === "\\") {
        escaped = true;
        parts.push(source.take());
      } else {
        parts.push(source.takeWhile(stringStop));
      }
    }
    length += parts[parts.length - 1]!.length;
    if (length > limit) throw new HttpError(413, "A field of the request is too large");
  }
}

/** Where a run of ordinary characters in a string, or of a scalar, stops. */
const stringStop = /["\\]/g;
const scalarStop = /[\s,}\]:"[{]/g;

const simpleEscapes: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/**
 * The characters of a string, escapes decoded, in the pieces they arrive in (the opening quote is
 * consumed here, the closing one ends it). A raw control character or a bad escape is malformed JSON.
 */
export async function* stringPieces(source: BodySource): AsyncGenerator<string> {
  source.take();
  for (;;) {
    if (!(await source.fill())) throw malformed();
    const char = source.peek();
    if (char === '"') {
      source.take();
      return;
    }
    if (char === "\\") {
      source.take();
      if (!(await source.fill())) throw malformed();
      const kind = source.take();
      if (kind === "u") {
        let hex = "";
        while (hex.length < 4) {
          if (!(await source.fill())) throw malformed();
          hex += source.take();
        }
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw malformed();
        yield String.fromCharCode(parseInt(hex, 16));
      } else {
        const decoded = simpleEscapes[kind];
        if (decoded === undefined) throw malformed();
        yield decoded;
      }
      continue;
    }
    const piece = source.takeWhile(stringStop);
    // eslint-disable-next-line no-control-regex -- JSON forbids raw control characters inside a string
    if (/[\u0000-\u001f]/.test(piece)) throw malformed();
    yield piece;
  }
}
