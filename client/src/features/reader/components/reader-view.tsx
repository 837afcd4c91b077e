import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { readingMinutes, readingTimeText } from "@shared/paper-versions";
import { useMediaQuery } from "@/lib/use-media-query";
import type { PdfPage, PdfSource } from "@/features/reader/lib/pdf-source";
import { useReaderKeys } from "@/features/reader/lib/reader-keys";
import { useDocumentSearch } from "@/features/reader/lib/use-search";
import { useReadingProgress } from "@/features/reader/lib/use-reading-progress";
import { fitScale, stepZoom, type Zoom } from "@/features/reader/lib/zoom";
import { PagesView, type PagesHandle } from "@/features/reader/components/pages-view";
import { ReaderPanel } from "@/features/reader/components/reader-panel";
import { ReaderToolbar } from "@/features/reader/components/reader-toolbar";
import { SidePanel } from "@/features/reader/components/side-panel";
import { SelectionAddNote } from "@/features/reader/components/selection-add-note";
import type { NoteDraft } from "@/features/reader/components/notes-panel";
import "@/features/reader/reader.css";

/** Below Tailwind's `md` (768 px) the side panel is a sheet; from 1280 px the notes sit beside the pages. */
const NARROW = "(width < 48rem)";
const WIDE = "(width >= 80rem)";
const noHighlights: readonly string[] = [];

export interface ReaderNotes {
  /** The notes' panel, given the current page, the note being written and how to jump to a page. */
  panel: (props: {
    currentPage: number;
    draft: NoteDraft | null;
    onDraft: (draft: NoteDraft | null) => void;
    onGoTo: (page: number) => void;
  }) => ReactNode;
  quotesByPage: ReadonlyMap<number, readonly string[]>;
  noteCounts: ReadonlyMap<number, number>;
  /** Notes may be written (the latest version). */
  writable: boolean;
}

/** An opened PDF: the toolbar, the side panel (search, outline or pages), the pages and, for a paper, the notes. */
export function ReaderView({
  source,
  firstPage,
  initialPage,
  header,
  notes,
  onPagesSeen,
  highlights = noHighlights,
}: {
  source: PdfSource;
  firstPage: PdfPage;
  initialPage: number;
  header: ReactNode;
  notes: ReaderNotes | null;
  onPagesSeen: ((pages: number[]) => Promise<unknown>) | null;
  /** Words to mark on every page (a board search's words); the same array while they do not change. */
  highlights?: readonly string[];
}) {
  const narrow = useMediaQuery(NARROW);
  const wide = useMediaQuery(WIDE);
  const pageCount = source.pageCount;
  const [startPage] = useState(() => Math.min(Math.max(initialPage, 1), pageCount));
  const [page, setPage] = useState(startPage);
  const [zoom, setZoom] = useState<Zoom>("fit");
  const [width, setWidth] = useState(0);
  const [sideOpen, setSideOpen] = useState(!narrow);
  const [notesOpen, setNotesOpen] = useState(wide);
  // Crossing a breakpoint (a phone turned, a window resized) starts the panels as that width starts them: a docked
  // panel left open must not come back as a sheet covering the pages.
  const [layout, setLayout] = useState(`${narrow}-${wide}`);
  if (layout !== `${narrow}-${wide}`) {
    setLayout(`${narrow}-${wide}`);
    setSideOpen(!narrow);
    setNotesOpen(wide);
  }
  const [query, setQuery] = useState("");
  const [active, setActive] = useState<number | null>(null);
  const [draft, setDraft] = useState<NoteDraft | null>(null);
  const pages = useRef<PagesHandle | null>(null);
  const pagesArea = useRef<HTMLDivElement>(null);

  const search = useDocumentSearch(source, query);
  const onReadable = useReadingProgress(onPagesSeen);
  const scale = zoom === "fit" ? (width > 0 ? fitScale(width, firstPage.size.width) : 1) : zoom;

  const goTo = useCallback(
    (target: number) => {
      pages.current?.goTo(Math.min(Math.max(target, 1), pageCount));
      if (narrow) setSideOpen(false);
    },
    [pageCount, narrow],
  );
  const zoomBy = useCallback((direction: 1 | -1) => setZoom(stepZoom(scale, direction)), [scale]);
  const onKeyDown = useReaderKeys({ page, pageCount, goTo, zoom: zoomBy, fit: () => setZoom("fit") });
  const onOpenNotes = useCallback(() => setNotesOpen(true), []);
  const onDraft = useCallback((next: NoteDraft | null) => {
    setDraft(next);
    if (next) setNotesOpen(true);
  }, []);

  // The current page, announced politely once the reader stops on it rather than at every page scrolled past.
  const [announced, setAnnounced] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setAnnounced(`Page ${page} of ${pageCount}`), 600);
    return () => clearTimeout(timer);
  }, [page, pageCount]);

  const minutes = readingMinutes(pageCount);
  const activeHit = active == null ? null : (search.hits[active] ?? null);
  const onActive = (index: number) => {
    setActive(index);
    const hit = search.hits[index];
    if (hit) goTo(hit.page);
  };
  const onQuery = (next: string) => {
    setQuery(next);
    setActive(null);
  };

  const quotes = useMemo(() => notes?.quotesByPage ?? new Map<number, readonly string[]>(), [notes]);
  const counts = useMemo(() => notes?.noteCounts ?? new Map<number, number>(), [notes]);

  return (
    <section
      aria-label="Document reader"
      onKeyDown={onKeyDown}
      className="flex h-[calc(100dvh-7rem)] min-h-[28rem] flex-col overflow-hidden rounded-lg border bg-card md:h-[calc(100dvh-8rem)]"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 border-b px-3 py-2">
        {header}
        <p className="text-sm text-muted-foreground">
          Page {page} of {pageCount}
          {minutes != null && ` · about ${readingTimeText(minutes)}`}
        </p>
      </div>
      <ReaderToolbar
        page={page}
        pageCount={pageCount}
        scale={scale}
        fitting={zoom === "fit"}
        onGoTo={goTo}
        onZoom={zoomBy}
        onFit={() => setZoom("fit")}
        sideOpen={sideOpen}
        onToggleSide={() => setSideOpen((open) => !open)}
        notesOpen={notes ? notesOpen : undefined}
        onToggleNotes={notes ? () => setNotesOpen((open) => !open) : undefined}
      />
      <div className="flex min-h-0 flex-1">
        <ReaderPanel title="Pages and search" side="left" docked={!narrow} open={sideOpen} onOpenChange={setSideOpen} className="w-60">
          <SidePanel
            source={source}
            page={page}
            onGoTo={goTo}
            query={query}
            onQuery={onQuery}
            search={search}
            active={active}
            onActive={onActive}
          />
        </ReaderPanel>
        <div ref={pagesArea} className="min-w-0 flex-1">
          <PagesView
            source={source}
            firstSize={firstPage.size}
            scale={scale}
            initialPage={startPage}
            handleRef={pages}
            onCurrentPage={setPage}
            onReadable={onReadable}
            onWidth={setWidth}
            query={query}
            activeHit={activeHit}
            quotesByPage={quotes}
            highlights={highlights}
            noteCounts={counts}
            onOpenNotes={notes ? onOpenNotes : undefined}
          />
        </div>
        {notes && (
          <ReaderPanel title="My notes" side="right" docked={wide} open={notesOpen} onOpenChange={setNotesOpen} className="w-72">
            {notes.panel({ currentPage: page, draft, onDraft, onGoTo: goTo })}
          </ReaderPanel>
        )}
      </div>
      {notes?.writable && <SelectionAddNote pages={pagesArea} onAdd={onDraft} />}
      <p role="status" aria-live="polite" className="sr-only">
        {announced}
      </p>
    </section>
  );
}
