import type { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import type { Request, Response } from "express";
import { HttpError } from "./errors";

// Byte ranges of a stored file (a paper, one of its versions, a board pack): a reader such as pdf.js asks for the
// pieces it needs, so a long PDF shows its first page long before the whole file has arrived.

/** The bytes `start` to `end` of a file, both included. */
export interface ByteRange {
  start: number;
  end: number;
}

export type WantedBytes = { kind: "whole" } | { kind: "part"; range: ByteRange } | { kind: "unsatisfiable" };

const whole: WantedBytes = { kind: "whole" };
/** More digits than any file's offset has: a longer number is no offset of ours. */
const offsetPattern = "(\\d{0,15})";
const singleRange = new RegExp(`^bytes\\s*=\\s*${offsetPattern}\\s*-\\s*${offsetPattern}\\s*$`, "i");

/**
 * What a request's Range asks of a file of `size` bytes tagged `etag`. One range (`bytes=a-b`, `a-`, `-n`) is
 * answered as such, its end cut to the file's; several ranges, another unit, a header that does not parse, or an
 * If-Range naming another tag (or a date: our tags are strong, the file's time is not kept) are answered whole; a
 * range starting past the end, or an empty suffix, cannot be satisfied.
 */
export function wantedBytes(range: string | undefined, ifRange: string | undefined, size: number, etag: string): WantedBytes {
  if (range === undefined) return whole;
  if (ifRange !== undefined && ifRange.trim() !== etag) return whole;
  const match = singleRange.exec(range);
  if (!match) return whole;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return whole;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "part", range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  // An end before the start makes the header invalid, and an invalid Range is ignored.
  if (last !== "" && Number(last) < start) return whole;
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "part", range: { start, end: last === "" ? size - 1 : Math.min(Number(last), size - 1) } };
}

/**
 * The range of a file of `size` bytes the request asks for, or undefined for the whole file. Says that ranges are
 * answered; a range outside the file is refused (416, naming the size), and the file's own headers are dropped so
 * the error body is sent as itself.
 */
export function rangeOf(req: Request, res: Response, size: number, etag: string): ByteRange | undefined {
  res.set("Accept-Ranges", "bytes");
  const wanted = wantedBytes(req.get("range"), req.get("if-range"), size, etag);
  if (wanted.kind === "unsatisfiable") {
    res.removeHeader("Content-Type");
    res.removeHeader("Content-Disposition");
    throw new HttpError(416, "The range asked for lies outside the file", { "Content-Range": `bytes */${size}` });
  }
  return wanted.kind === "part" ? wanted.range : undefined;
}

/**
 * Sends the file's bytes, or its `range` of them (206 with Content-Range): `body` is the whole file's bytes in
 * memory, or a stream of just the bytes to send. Done once they are sent, or the client has gone.
 */
export async function sendBytes(res: Response, body: Buffer | Readable, size: number, range: ByteRange | undefined): Promise<void> {
  if (range) res.status(206).set("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
  res.set("Content-Length", String(range ? range.end - range.start + 1 : size));
  if (Buffer.isBuffer(body)) {
    res.end(range ? body.subarray(range.start, range.end + 1) : body);
    await finished(res).catch(() => undefined);
    return;
  }
  body.on("error", (error) => res.destroy(error));
  body.pipe(res);
  // The handler is done once the file is sent (or the response cut short): nothing is left for the route to answer.
  await finished(res).catch(() => undefined);
}

/** A stored file: its size and tag, and its bytes (or a range of them) opened only when they are to be sent. */
export interface RangedFile {
  size: number;
  etag: string;
  open: (range?: ByteRange) => Promise<Readable>;
}

/**
 * Answers a stored file whose other headers (type, disposition, caching) the caller has set: 304 while the
 * client's copy is current (If-None-Match wins over any Range), else the bytes asked for.
 */
export async function sendFile(req: Request, res: Response, file: RangedFile): Promise<void> {
  res.set({ ETag: file.etag, "Accept-Ranges": "bytes" });
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  const range = rangeOf(req, res, file.size, file.etag);
  await sendBytes(res, await file.open(range), file.size, range);
}
