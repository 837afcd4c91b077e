import { useEffect, useState } from "react";
import { cn } from "@/lib/utils";
import type { OutlineEntry, PdfSource } from "@/features/reader/lib/pdf-source";
import type { useDocumentSearch } from "@/features/reader/lib/use-search";
import { OutlineList, PageThumbnails } from "@/features/reader/components/page-list";
import { SearchPanel } from "@/features/reader/components/search-panel";

/** Search, then the outline (when the document has one) or the pages' thumbnails; a search's results take their place. */
export function SidePanel({
  source,
  page,
  onGoTo,
  query,
  onQuery,
  search,
  active,
  onActive,
}: {
  source: PdfSource;
  page: number;
  onGoTo: (page: number) => void;
  query: string;
  onQuery: (query: string) => void;
  search: ReturnType<typeof useDocumentSearch>;
  active: number | null;
  onActive: (index: number) => void;
}) {
  const [outline, setOutline] = useState<OutlineEntry[]>([]);
  const [view, setView] = useState<"outline" | "pages">("outline");

  useEffect(() => {
    let live = true;
    source
      .outline()
      .then((entries) => live && setOutline(entries))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [source]);

  const hasOutline = outline.length > 0;
  return (
    <div className="grid content-start gap-3">
      <SearchPanel
        query={query}
        onQuery={onQuery}
        hits={search.hits}
        searching={search.searching}
        pagesSearched={search.pagesSearched}
        pageCount={source.pageCount}
        active={active}
        onActive={onActive}
      />
      {query.trim() === "" && (
        <>
          {hasOutline && (
            <div role="group" aria-label="Show" className="flex gap-1 rounded-lg bg-muted p-1 text-sm">
              {(["outline", "pages"] as const).map((value) => (
                <button
                  key={value}
                  type="button"
                  aria-pressed={view === value}
                  onClick={() => setView(value)}
                  className={cn(
                    "flex-1 rounded-md px-2 py-1 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60",
                    view === value && "bg-card font-medium shadow-sm",
                  )}
                >
                  {value === "outline" ? "Outline" : "Pages"}
                </button>
              ))}
            </div>
          )}
          {hasOutline && view === "outline" ? (
            <OutlineList outline={outline} current={page} onGoTo={onGoTo} />
          ) : (
            <PageThumbnails source={source} current={page} onGoTo={onGoTo} />
          )}
        </>
      )}
    </div>
  );
}
