import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";
import type { PageSize, PdfSource } from "@/features/reader/lib/pdf-source";
import type { SearchHit } from "@/features/reader/lib/search";
import { PageView } from "@/features/reader/components/page-view";

export interface PagesHandle {
  goTo: (page: number) => void;
}

const gapPx = 16;
const none: readonly string[] = [];

/** Whether a page shows enough to be read: half of it, or half of the view when it is taller than that. */
function readable(entry: IntersectionObserverEntry): boolean {
  if (!entry.isIntersecting) return false;
  const view = entry.rootBounds?.height ?? entry.boundingClientRect.height;
  return entry.intersectionRect.height >= Math.min(entry.boundingClientRect.height, view) / 2;
}

/**
 * The pages, one under the other, each drawn only near the view (IntersectionObserver). Tells which page is
 * current (the one showing most), which pages are readable in view (for reading progress), and the width there is
 * (for fit width).
 */
export function PagesView(props: {
  source: PdfSource;
  firstSize: PageSize;
  scale: number;
  initialPage: number;
  handleRef: RefObject<PagesHandle | null>;
  onCurrentPage: (page: number) => void;
  onReadable: (page: number, readable: boolean) => void;
  onWidth: (width: number) => void;
  query: string;
  activeHit: SearchHit | null;
  quotesByPage: ReadonlyMap<number, readonly string[]>;
  highlights: readonly string[];
  noteCounts: ReadonlyMap<number, number>;
  onOpenNotes?: (page: number) => void;
}) {
  const { source, firstSize, scale, initialPage, handleRef, onCurrentPage, onReadable, onWidth } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const [sizes, setSizes] = useState<ReadonlyMap<number, PageSize>>(new Map());
  const [near, setNear] = useState<ReadonlySet<number>>(() => new Set([initialPage]));
  const current = useRef(initialPage);
  const shown = useRef(new Map<number, number>());

  const onSize = useCallback((page: number, size: PageSize) => setSizes((known) => new Map(known).set(page, size)), []);

  const goTo = useCallback(
    (page: number) => {
      const target = scroller.current?.querySelector<HTMLElement>(`[data-page="${page}"]`);
      if (!scroller.current || !target) return;
      scroller.current.scrollTop = target.offsetTop - gapPx;
      current.current = page;
      onCurrentPage(page);
    },
    [onCurrentPage],
  );
  useEffect(() => {
    handleRef.current = { goTo };
  }, [handleRef, goTo]);

  // The page first asked for, once laid out; after a zoom, the page that was current stays in view.
  useLayoutEffect(() => goTo(current.current), [goTo, scale]);

  useEffect(() => {
    const root = scroller.current;
    if (!root) return;
    const resize = new ResizeObserver(() => onWidth(root.clientWidth - 2 * gapPx));
    resize.observe(root);
    onWidth(root.clientWidth - 2 * gapPx);
    if (typeof IntersectionObserver === "undefined") return () => resize.disconnect();

    const pageOf = (entry: IntersectionObserverEntry) => Number((entry.target as HTMLElement).dataset.page);
    // Pages within a screen's height of the view are drawn, so scrolling finds them ready.
    const nearby = new IntersectionObserver(
      (entries) =>
        setNear((was) => {
          const next = new Set(was);
          for (const entry of entries) {
            if (entry.isIntersecting) next.add(pageOf(entry));
            else next.delete(pageOf(entry));
          }
          return next;
        }),
      { root, rootMargin: "100% 0px" },
    );
    const inView = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const page = pageOf(entry);
          if (entry.isIntersecting) shown.current.set(page, entry.intersectionRect.height);
          else shown.current.delete(page);
          onReadable(page, readable(entry));
        }
        let best = current.current;
        let most = -1;
        for (const [page, height] of shown.current) if (height > most || (height === most && page < best)) [best, most] = [page, height];
        if (most >= 0 && best !== current.current) {
          current.current = best;
          onCurrentPage(best);
        }
      },
      { root, threshold: [0, 0.1, 0.25, 0.5, 0.75, 1] },
    );
    for (const page of root.querySelectorAll("[data-page]")) {
      nearby.observe(page);
      inView.observe(page);
    }
    return () => {
      resize.disconnect();
      nearby.disconnect();
      inView.disconnect();
    };
  }, [source, onWidth, onReadable, onCurrentPage]);

  const pages = Array.from({ length: source.pageCount }, (_, index) => index + 1);
  return (
    <div
      ref={scroller}
      tabIndex={0}
      role="group"
      aria-label="Document pages"
      className="relative h-full overflow-auto bg-muted/50 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60 focus-visible:ring-inset"
    >
      <div className="flex w-max min-w-full flex-col items-center" style={{ gap: gapPx, padding: gapPx }}>
        {pages.map((page) => (
          <PageView
            key={page}
            number={page}
            source={source}
            size={sizes.get(page) ?? firstSize}
            scale={scale}
            near={near.has(page)}
            query={props.query}
            activeHit={props.activeHit?.page === page ? props.activeHit.onPage : null}
            quotes={props.quotesByPage.get(page) ?? none}
            highlights={props.highlights}
            noteCount={props.noteCounts.get(page) ?? 0}
            onSize={onSize}
            onOpenNotes={props.onOpenNotes}
          />
        ))}
      </div>
    </div>
  );
}
