import { act } from "@testing-library/react";
import type { OutlineEntry, PdfOpener, PdfRequest, PdfSource } from "@/features/reader/lib/pdf-source";

/**
 * A PDF for the reader's tests, behind the same boundary pdf.js sits behind: its pages' text is written into the text
 * layer as one span a page (the canvas stays blank), so search marks, note marks and selections can be tested.
 */
export function fakePdf(texts: string[], outline: OutlineEntry[] = []) {
  const requests: PdfRequest[] = [];
  const source: PdfSource = {
    pageCount: texts.length,
    page: (number) =>
      Promise.resolve({
        size: { width: 600, height: 800 },
        render: ({ textLayer }) => {
          if (textLayer) {
            const span = document.createElement("span");
            span.textContent = texts[number - 1]!;
            textLayer.replaceChildren(span);
          }
          return { done: Promise.resolve(), cancel: () => undefined };
        },
      }),
    pageText: (number) => Promise.resolve(texts[number - 1]!),
    outline: () => Promise.resolve(outline),
    close: () => undefined,
  };
  const open: PdfOpener = (request) => {
    requests.push(request);
    return { promise: Promise.resolve(source), cancel: () => undefined };
  };
  return { open, requests, source };
}

/**
 * IntersectionObserver for jsdom, which has none: `show(page)` puts a page wholly in view (and near it) and
 * `hide(page)` takes it out, as the browser's observers would report.
 */
export function installFakeIntersection() {
  const observers = new Set<FakeObserver>();

  class FakeObserver {
    readonly elements = new Set<Element>();
    constructor(readonly callback: IntersectionObserverCallback) {
      observers.add(this);
    }
    observe(element: Element) {
      this.elements.add(element);
    }
    unobserve(element: Element) {
      this.elements.delete(element);
    }
    disconnect() {
      this.elements.clear();
      observers.delete(this);
    }
    takeRecords() {
      return [];
    }
  }

  const original = globalThis.IntersectionObserver;
  globalThis.IntersectionObserver = FakeObserver as unknown as typeof IntersectionObserver;

  /** Reports the change, then lets the pages drawn because of it finish (their drawing is asynchronous). */
  async function report(page: number, visible: boolean) {
    const box = { height: 800, width: 600, top: 0, left: 0, bottom: 800, right: 600, x: 0, y: 0 } as DOMRectReadOnly;
    const empty = { ...box, height: 0, width: 0 } as DOMRectReadOnly;
    await act(async () => {
      for (const observer of [...observers]) {
        const target = [...observer.elements].find((element) => (element as HTMLElement).dataset.page === String(page));
        if (!target) continue;
        const entry = {
          target,
          isIntersecting: visible,
          intersectionRatio: visible ? 1 : 0,
          intersectionRect: visible ? box : empty,
          boundingClientRect: box,
          rootBounds: box,
          time: 0,
        } as IntersectionObserverEntry;
        observer.callback([entry], observer as unknown as IntersectionObserver);
      }
      await Promise.resolve();
    });
  }

  return {
    show: (page: number) => report(page, true),
    hide: (page: number) => report(page, false),
    restore: () => {
      globalThis.IntersectionObserver = original;
    },
  };
}

/** Answers the reader's width queries ("(width < 48rem)", "(width >= 80rem)") as a window `px` wide would. */
export function setWindowWidth(px: number) {
  const original = window.matchMedia;
  window.matchMedia = (query: string) => {
    const match = /\(width\s*(<|>=)\s*([\d.]+)rem\)/.exec(query);
    const limit = match ? Number(match[2]) * 16 : 0;
    const matches = match ? (match[1] === "<" ? px < limit : px >= limit) : false;
    return { ...original(query), matches, media: query };
  };
  return () => {
    window.matchMedia = original;
  };
}
