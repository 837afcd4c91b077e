import type { Request, Response } from "express";
import { isPreviewable } from "../../../../shared/documents";
import { sendFile } from "../../http/byte-range";
import { contentDisposition } from "../../http/content-disposition";
import type { DocumentDownload } from "./documents.service";

/**
 * Answers a paper's file (its latest version or an earlier one) as stored: shown in the browser when asked and its
 * type can be, else an attachment under its name; revalidated by its tag, and in byte ranges when asked.
 */
export async function answerDownload(req: Request, res: Response, file: DocumentDownload, wantsInline: boolean): Promise<void> {
  const inline = wantsInline && isPreviewable(file.fileType);
  res.set({
    "Content-Type": file.fileType.startsWith("text/") ? `${file.fileType}; charset=utf-8` : file.fileType,
    "Content-Disposition": contentDisposition(inline ? "inline" : "attachment", file.name, file.fileType),
    "X-Content-Type-Options": "nosniff",
    // Whatever the file holds, it runs no script and reaches nothing: a sandboxed, unique origin.
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; object-src 'self'; frame-ancestors 'self'; sandbox",
    // Revalidated each time (a deleted or replaced document must not linger); never re-encoded, so the length holds.
    "Cache-Control": "private, no-cache, no-transform",
  });
  await sendFile(req, res, { size: file.fileSize, etag: file.etag, open: file.open });
}
