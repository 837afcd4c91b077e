import { getDocument, GlobalWorkerOptions, ResponseException, TextLayer, type PDFDocumentProxy } from "pdfjs-dist";
// The worker is its own file, fetched by the browser when the first PDF opens (a URL, not a module of this chunk).
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";
import {
  PdfOpenError,
  type OpeningPdf,
  type OutlineEntry,
  type PdfPage,
  type PdfRequest,
  type PdfSource,
} from "@/features/reader/lib/pdf-source";

GlobalWorkerOptions.workerSrc = workerUrl;

/** The outline's depth we follow: a deeper tree is a PDF's oddity, not a reader's need. */
const maxOutlineDepth = 6;

/**
 * Opens a PDF by its address in 64 KB ranges, fetching only what the pages shown need (the server answers Range),
 * so the first page is drawn before the whole file has arrived.
 */
export function openPdfjs({ url, token }: PdfRequest): OpeningPdf {
  const task = getDocument({
    url,
    withCredentials: true,
    httpHeaders: token ? { Authorization: `Bearer ${token}` } : undefined,
    rangeChunkSize: 65_536,
    disableAutoFetch: true,
    disableStream: true,
    isEvalSupported: false,
  });
  const promise = task.promise.then(
    (document) => sourceOf(document),
    (error: unknown) => {
      const status = error instanceof ResponseException ? Number(error.status) || null : null;
      throw new PdfOpenError(error instanceof Error ? error.message : "The PDF could not be opened", status);
    },
  );
  return { promise, cancel: () => void task.destroy() };
}

function sourceOf(document: PDFDocumentProxy): PdfSource {
  const texts = new Map<number, Promise<string>>();
  return {
    pageCount: document.numPages,
    page: async (number) => pageOf(await document.getPage(number)),
    pageText: (number) => {
      let text = texts.get(number);
      if (!text) {
        text = document
          .getPage(number)
          .then((page) => page.getTextContent())
          .then((content) => content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
        texts.set(number, text);
      }
      return text;
    },
    outline: async () => resolveOutline(document, (await document.getOutline()) ?? [], 0),
    close: () => void document.destroy(),
  };
}

type PdfjsPage = Awaited<ReturnType<PDFDocumentProxy["getPage"]>>;

function pageOf(page: PdfjsPage): PdfPage {
  const base = page.getViewport({ scale: 1 });
  return {
    size: { width: base.width, height: base.height },
    render: ({ canvas, textLayer, scale }) => {
      const viewport = page.getViewport({ scale });
      // Sharp on high-density screens, within what a canvas may hold.
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.style.width = `${Math.floor(viewport.width)}px`;
      canvas.style.height = `${Math.floor(viewport.height)}px`;
      const drawing = page.render({ canvas, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
      let text: TextLayer | undefined;
      if (textLayer) {
        textLayer.replaceChildren();
        text = new TextLayer({ textContentSource: page.streamTextContent(), container: textLayer, viewport });
      }
      const done = Promise.all([drawing.promise, text?.render()]).then(
        () => undefined,
        // A cancelled drawing is not an error: the page went out of view or the zoom changed.
        () => undefined,
      );
      return {
        done,
        cancel: () => {
          drawing.cancel();
          text?.cancel();
        },
      };
    },
  };
}

type OutlineNode = Awaited<ReturnType<PDFDocumentProxy["getOutline"]>>[number];

async function resolveOutline(document: PDFDocumentProxy, nodes: OutlineNode[], depth: number): Promise<OutlineEntry[]> {
  if (depth >= maxOutlineDepth) return [];
  return Promise.all(
    nodes.map(async (node) => ({
      title: node.title,
      page: await pageOfDestination(document, node.dest),
      children: await resolveOutline(document, (node.items ?? []) as OutlineNode[], depth + 1),
    })),
  );
}

/** The page (from 1) an outline entry leads to: a named destination is looked up, then its page reference. */
async function pageOfDestination(document: PDFDocumentProxy, dest: OutlineNode["dest"]): Promise<number | null> {
  try {
    const explicit = typeof dest === "string" ? await document.getDestination(dest) : dest;
    const target: unknown = explicit?.[0];
    if (typeof target === "number") return target + 1;
    if (target && typeof target === "object")
      return (await document.getPageIndex(target as Parameters<PDFDocumentProxy["getPageIndex"]>[0])) + 1;
  } catch {
    // A broken destination: the entry is shown without a page.
  }
  return null;
}
