import { useEffect, useRef, useState } from "react";
import { cn } from "@/lib/utils";
import type { OutlineEntry, PdfSource } from "@/features/reader/lib/pdf-source";

const thumbnailWidth = 112;
const itemClass =
  "w-full rounded-md px-2 py-1 text-left text-sm outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/60";

/** The document's outline, to jump by (the pack has one entry per paper). */
export function OutlineList({ outline, current, onGoTo }: { outline: OutlineEntry[]; current: number; onGoTo: (page: number) => void }) {
  return (
    <nav aria-label="Outline">
      <OutlineLevel entries={outline} current={current} onGoTo={onGoTo} />
    </nav>
  );
}

function OutlineLevel({ entries, current, onGoTo }: { entries: OutlineEntry[]; current: number; onGoTo: (page: number) => void }) {
  return (
    <ul className="grid gap-0.5">
      {entries.map((entry, index) => (
        <li key={index}>
          {entry.page == null ? (
            <span className="block px-2 py-1 text-sm text-muted-foreground">{entry.title}</span>
          ) : (
            <button type="button" className={itemClass} onClick={() => onGoTo(entry.page!)}>
              <span className="break-words">{entry.title}</span>
              <span className="ml-1 text-xs text-muted-foreground">p. {entry.page}</span>
            </button>
          )}
          {entry.children.length > 0 && (
            <div className="pl-3">
              <OutlineLevel entries={entry.children} current={current} onGoTo={onGoTo} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Every page as a small picture, drawn when scrolled into the panel's view. */
export function PageThumbnails({ source, current, onGoTo }: { source: PdfSource; current: number; onGoTo: (page: number) => void }) {
  const pages = Array.from({ length: source.pageCount }, (_, index) => index + 1);
  return (
    <nav aria-label="Pages">
      <ol className="grid justify-items-center gap-3">
        {pages.map((page) => (
          <li key={page}>
            <button
              type="button"
              aria-label={`Page ${page}`}
              aria-current={page === current ? "page" : undefined}
              onClick={() => onGoTo(page)}
              className={cn(
                "grid justify-items-center gap-1 rounded-md p-1 text-xs outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/60",
                page === current && "bg-accent font-semibold",
              )}
            >
              <Thumbnail source={source} page={page} />
              <span aria-hidden>{page}</span>
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function Thumbnail({ source, page }: { source: PdfSource; page: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    const element = canvas.current;
    if (!element || visible || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && setVisible(true));
    observer.observe(element);
    return () => observer.disconnect();
  }, [visible]);

  useEffect(() => {
    if (!visible) return;
    let cancel: (() => void) | undefined;
    let live = true;
    void source
      .page(page)
      .then((loaded) => {
        if (live) cancel = loaded.render({ canvas: canvas.current!, textLayer: null, scale: thumbnailWidth / loaded.size.width }).cancel;
      })
      .catch(() => undefined);
    return () => {
      live = false;
      cancel?.();
    };
  }, [visible, source, page]);

  return <canvas ref={canvas} aria-hidden className="h-[145px] w-[112px] bg-white ring-1 ring-border" style={{ width: thumbnailWidth }} />;
}
