import type { Readable } from "node:stream";
import busboy from "busboy";
import type { Request, Response } from "express";
import { maxFileBytes } from "../../../../shared/documents";
import { HttpError } from "../../http/errors";
import { tooLarge } from "./file-checks";

/** Room for the text fields and the part headers around a 20 MiB file. */
const multipartOverheadBytes = 256 * 1024;

/** True when the request says, before a byte of it is read, that it holds more than a file may be. */
export function declaresTooLarge(req: Request, allowance = multipartOverheadBytes): boolean {
  const length = Number(req.get("content-length"));
  return Number.isFinite(length) && length > maxFileBytes + allowance;
}

/**
 * A 413 from the declared length alone, sent at once: what the client still sends is discarded as it
 * arrives, never gathered, and the connection is closed after.
 */
export function refuseUnread(req: Request, res: Response): never {
  res.set("Connection", "close");
  req.resume();
  throw tooLarge();
}

/**
 * Reads a multipart/form-data body as a stream: text fields first, then one file part, which is handed to
 * `onFile` with the fields seen before it. The file's bytes are never gathered here; `onFile` reads them as
 * they arrive (and the socket is paused while it is busy). A refusal from `onFile` stops reading: the rest of
 * the body is drained and discarded so the connection can answer.
 */
export function readMultipart<T>(
  req: Request,
  onFile: (fields: Record<string, string>, fileName: string, file: Readable) => Promise<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fields: 20, fieldSize: 64 * 1024, parts: 24, fileSize: maxFileBytes + 1 },
      });
    } catch {
      reject(new HttpError(400, "Malformed multipart body"));
      return;
    }
    const fields: Record<string, string> = {};
    let handling: Promise<T> | undefined;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      req.resume();
      reject(error);
    };

    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) return fail(new HttpError(400, `The field ${name} is too long`));
      if (!(name in fields)) fields[name] = value;
    });
    parser.on("file", (_name, file, info) => {
      if (handling) {
        file.resume();
        return;
      }
      file.on("limit", () => file.destroy(tooLarge()));
      handling = Promise.resolve().then(() => onFile({ ...fields }, info.filename ?? "", file));
      handling.then(
        (value) => {
          if (settled) return;
          settled = true;
          // Anything after the file part is not read.
          req.unpipe(parser);
          req.resume();
          resolve(value);
        },
        (error) => {
          file.resume();
          fail(error);
        },
      );
    });
    parser.on("filesLimit", () => undefined);
    parser.on("partsLimit", () => fail(new HttpError(400, "Too many parts in the upload")));
    parser.on("fieldsLimit", () => fail(new HttpError(400, "Too many fields in the upload")));
    parser.on("error", () => fail(new HttpError(400, "Malformed multipart body")));
    parser.on("close", () => {
      if (!handling) fail(new HttpError(400, "Choose a file to upload", {}, [{ path: "file", message: "Choose a file to upload" }]));
    });
    req.on("aborted", () => fail(new HttpError(400, "The upload was interrupted")));
    req.pipe(parser);
  });
}
