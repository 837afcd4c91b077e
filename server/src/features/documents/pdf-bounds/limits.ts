/**
 * What an uploaded PDF may hold. Readers (the board pack among them) inflate a PDF's compressed streams and
 * walk its pages; a small file can claim gigabytes or millions of pages, so both are bounded at upload.
 * Kept as one object so tests can lower them.
 */
export const pdfLimits = {
  /** Pages, however they are counted (page objects, the page tree's own count, references to pages). */
  pages: 2000,
  /** Bytes that the file's Flate, LZW and run-length streams expand to, all together. */
  expandedBytes: 512 * 1024 * 1024,
  /**
   * Bytes of object streams (objects packed together, compressed) read for the pages they hold. Honest files pack
   * a few MiB at most; reading one token at a time on this thread costs about 1 s per 32 MiB of dense tokens.
   */
  objectStreamBytes: 32 * 1024 * 1024,
  /**
   * References (in /Kids and array objects), page-tree nodes and object-stream header entries kept to count pages
   * at the end; honest files need a few thousand. Past it the file is refused as one that cannot be checked.
   */
  treeEntries: 1_000_000,
};

const mebibyte = 1024 * 1024;
export const tooManyPagesMessage = (limit: number) => `This PDF has more than ${limit.toLocaleString("en-US")} pages`;
export const expandsTooFarMessage = (limit: number) =>
  `This PDF's contents expand to more than ${(limit / mebibyte).toLocaleString("en-US")} MiB`;
export const objectStreamsTooLargeMessage = (limit: number) =>
  `This PDF's object streams expand to more than ${(limit / mebibyte).toLocaleString("en-US")} MiB`;
export const uncheckableMessage = "This PDF's streams could not be checked";
export const indirectFilterMessage = "This PDF names a stream's filters indirectly, so its streams cannot be checked";
export const encryptedMessage =
  "This PDF is encrypted and packs its objects into compressed streams, so its contents cannot be checked. Upload a copy without a password or restrictions";
export const pageTreeUncheckableMessage = "This PDF's page tree could not be checked";
