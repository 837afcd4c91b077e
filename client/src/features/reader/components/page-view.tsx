import { StickyNote } from "lucide-react";
import { memo, useEffect, useRef, useState, type CSSProperties } from "react";
import type { PageSize, PdfSource } from "@/features/reader/lib/pdf-source";
import { clearMarks, markText } from "@/features/reader/lib/text-marks";

export const searchMarkClass = "reader-search-hit";
export const activeMarkClass = "reader-search-hit-active";
export const noteMarkClass = "reader-note-mark";
export const highlightMarkClass = "reader-highlight";

export interface PageViewProps {
  number: number;
  source: PdfSource;
  size: PageSize;
  scale: number;
  /** Near the view: drawn. Pages far from it hold no canvas (a long pack's canvases would fill the memory). */
  near: boolean;
  query: string;
  /** The search hit to show, by its order on this page. */
  activeHit: number | null;
  quotes: readonly string[];
  /** Words marked wherever they appear (those of the board's search that opened the paper). */
  highlights: readonly string[];
  noteCount: number;
  onSize: (page: number, size: PageSize) => void;
  onOpenNotes?: (page: number) => void;
}

/** One page: its canvas, its text layer over it (selectable, read aloud) with search and note marks, and its notes' mark. */
export const PageView = memo(function PageView(props: PageViewProps) {
  const { number, source, size, scale, near, query, activeHit, quotes, highlights, noteCount, onSize, onOpenNotes } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  // Bumped each time the text layer is drawn again, so the marks are put back on it.
  const [drawn, setDrawn] = useState(0);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!near) return;
    let live = true;
    let cancel: (() => void) | undefined;
    source
      .page(number)
      .then((page) => {
        if (!live) return;
        if (page.size.width !== size.width || page.size.height !== size.height) onSize(number, page.size);
        const task = page.render({ canvas: canvasRef.current!, textLayer: textRef.current, scale });
        cancel = task.cancel;
        return task.done.then(() => live && setDrawn((count) => count + 1));
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
      cancel?.();
    };
    // The page's size is what it reports; its change must not draw it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [near, source, number, scale, onSize]);

  useEffect(() => {
    const layer = textRef.current;
    if (!layer || drawn === 0) return;
    clearMarks(layer, noteMarkClass);
    clearMarks(layer, searchMarkClass);
    clearMarks(layer, highlightMarkClass);
    for (const term of highlights) markText(layer, term, highlightMarkClass);
    for (const quote of quotes) markText(layer, quote, noteMarkClass, 1);
    const hits = query.trim() ? markText(layer, query, searchMarkClass) : [];
    const active = activeHit == null ? undefined : hits[activeHit];
    for (const mark of active ?? []) mark.classList.add(activeMarkClass);
    active?.[0]?.scrollIntoView({ block: "center" });
  }, [drawn, query, activeHit, quotes, highlights]);

  const style = { width: size.width * scale, height: size.height * scale, "--total-scale-factor": scale } as CSSProperties;
  return (
    <div
      data-page={number}
      // Drawn at least once: what the browser tests and the bench wait for.
      data-drawn={drawn > 0 ? "true" : undefined}
      role="group"
      aria-label={`Page ${number}`}
      className="reader-page relative mx-auto shrink-0 bg-white shadow-sm ring-1 ring-border"
      style={style}
    >
      {near && <canvas ref={canvasRef} aria-hidden className="absolute inset-0" />}
      {near && <div ref={textRef} className="textLayer" />}
      {failed && <p className="absolute inset-x-0 top-8 text-center text-sm text-neutral-600">This page could not be shown.</p>}
      {noteCount > 0 && (
        <button
          type="button"
          onClick={() => onOpenNotes?.(number)}
          aria-label={`${noteCount} ${noteCount === 1 ? "note" : "notes"} on page ${number}`}
          className="absolute top-1 right-1 z-10 flex items-center gap-0.5 rounded-md shadow-sm bg-amber-300 px-1 py-0.5 text-xs font-medium text-neutral-900 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60"
        >
          <StickyNote className="size-3.5" aria-hidden />
          {noteCount}
        </button>
      )}
    </div>
  );
});
