import { getDocument, GlobalWorkerOptions, PDFDataRangeTransport, TextLayer, type PDFDocumentProxy } from "pdfjs-dist";
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

/** What one range request asks for: a page's objects in a request or two, and little beyond what the page needs. */
const chunkBytes = 32_768;

/**
 * Opens a PDF by its address in 32 KB ranges, fetching only what the pages shown need (the server answers Range),
 * so the first page is drawn before the whole file has arrived. The first range also tells the file's length, so no
 * request ever asks for the whole file (pdf.js's own loader starts with one, which a fast server fills before it is
 * cut short). A server that answers a range with the whole file (200) is read whole.
 */
export function openPdfjs({ url, token }: PdfRequest): OpeningPdf {
  const aborted = new AbortController();
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const range = async (begin: number, end: number) => {
    const response = await fetch(url, {
      headers: { ...headers, Range: `bytes=${begin}-${end - 1}` },
      credentials: "include",
      signal: aborted.signal,
    });
    if (!response.ok) throw new PdfOpenError(`The PDF could not be read (${response.status})`, response.status);
    return response;
  };
  let destroy: (() => void) | undefined;
  const promise = (async () => {
    const first = await range(0, chunkBytes);
    const total = Number(/\/(\d+)$/.exec(first.headers.get("Content-Range") ?? "")?.[1]);
    const initial = new Uint8Array(await first.arrayBuffer());
    let task: ReturnType<typeof getDocument>;
    if (first.status === 206 && total > initial.length) {
      const transport = new PDFDataRangeTransport(total, initial);
      transport.requestDataRange = (begin: number, end: number) => {
        range(begin, end)
          .then(async (response) => transport.onDataRange(begin, new Uint8Array(await response.arrayBuffer())))
          .catch(() => undefined);
      };
      task = getDocument({ range: transport, rangeChunkSize: chunkBytes, disableAutoFetch: true, isEvalSupported: false });
    } else {
      task = getDocument({ data: initial, isEvalSupported: false });
    }
    destroy = () => void task.destroy();
    try {
      return sourceOf(await task.promise);
    } catch (error) {
      throw new PdfOpenError(error instanceof Error ? error.message : "The PDF could not be opened", null);
    }
  })();
  return {
    promise,
    cancel: () => {
      aborted.abort();
      destroy?.();
    },
  };
}

function sourceOf(document: PDFDocumentProxy): PdfSource {
  const texts = new Map<number, Promise<string>>();
  // The outline waits for the first page drawn: finding its entries' pages walks the page tree, whose objects may lie
  // all over the file, and the first page must not wait behind them.
  let firstDrawn!: () => void;
  const drawn = new Promise<void>((resolve) => (firstDrawn = resolve));
  let firstAsked: number | undefined;
  // A first page that cannot be drawn holds the outline and the other pages back no longer than this.
  setTimeout(firstDrawn, 3_000);
  return {
    pageCount: document.numPages,
    page: async (number) => {
      // The first page asked for is drawn first; the others near it wait for it, so its ranges come first.
      firstAsked ??= number;
      if (number !== firstAsked) await drawn;
      return pageOf(await document.getPage(number), firstDrawn);
    },
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
    outline: async () => {
      await drawn;
      return resolveOutline(document, (await document.getOutline()) ?? [], 0);
    },
    close: () => void document.destroy(),
  };
}

type PdfjsPage = Awaited<ReturnType<PDFDocumentProxy["getPage"]>>;

function pageOf(page: PdfjsPage, onDrawn: () => void): PdfPage {
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
        () => onDrawn(),
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
