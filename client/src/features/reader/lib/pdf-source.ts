// What the reader needs of a PDF, apart from how it is read: pdf.js sits behind `openWithPdfjs`, loaded only when a
// reader opens, and tests hand the reader a fake source instead.

/** An entry of a PDF's outline (its bookmarks), with the page it leads to (null when it names none we can find). */
export interface OutlineEntry {
  title: string;
  page: number | null;
  children: OutlineEntry[];
}

/** A page's size at 100 %, in CSS pixels. */
export interface PageSize {
  width: number;
  height: number;
}

/** A drawing under way: `done` settles when it has finished (or was cancelled). */
export interface RenderTask {
  done: Promise<void>;
  cancel: () => void;
}

export interface PdfPage {
  size: PageSize;
  /** Draws the page on `canvas` and, when given, its text into `textLayer` (selectable, read by screen readers). */
  render: (target: { canvas: HTMLCanvasElement; textLayer: HTMLElement | null; scale: number }) => RenderTask;
}

export interface PdfSource {
  pageCount: number;
  page: (number: number) => Promise<PdfPage>;
  /** The page's text, its pieces joined by spaces (for search and for the notes' page text). */
  pageText: (number: number) => Promise<string>;
  outline: () => Promise<OutlineEntry[]>;
  close: () => void;
}

export interface PdfRequest {
  url: string;
  /** The stored session token, sent as a bearer header on every range request. */
  token: string | null;
}

export interface OpeningPdf {
  promise: Promise<PdfSource>;
  cancel: () => void;
}

export type PdfOpener = (request: PdfRequest) => OpeningPdf;

/** Why a PDF could not be opened: the server's status when it answered one (429/503 while a pack is built). */
export class PdfOpenError extends Error {
  readonly status: number | null;
  constructor(message: string, status: number | null) {
    super(message);
    this.name = "PdfOpenError";
    this.status = status;
  }
}
