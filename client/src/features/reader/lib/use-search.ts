import { useEffect, useMemo, useState } from "react";
import type { PdfSource } from "@/features/reader/lib/pdf-source";
import { findInPages, type SearchHit } from "@/features/reader/lib/search";

/**
 * Searches the PDF's text for `query`. The pages' text is read the first time someone searches (every page is then
 * fetched, so not before), page by page, and kept: the hits grow as pages are read.
 */
export function useDocumentSearch(source: PdfSource, query: string) {
  const [texts, setTexts] = useState<string[]>([]);
  const wanted = query.trim() !== "";
  const [started, setStarted] = useState(false);
  if (wanted && !started) setStarted(true);

  useEffect(() => {
    if (!started) return;
    let live = true;
    void (async () => {
      const read: string[] = [];
      for (let page = 1; page <= source.pageCount && live; page++) {
        // A page whose text cannot be read is searched as empty.
        read.push(await source.pageText(page).catch(() => ""));
        // Shown every few pages, not on each: a long pack would re-render hundreds of times.
        if (live && (page % 10 === 0 || page === source.pageCount)) setTexts([...read]);
      }
    })();
    return () => {
      live = false;
    };
  }, [source, started]);

  const hits: SearchHit[] = useMemo(() => (wanted ? findInPages(texts, query) : []), [texts, query, wanted]);
  return { hits, searching: wanted && texts.length < source.pageCount, pagesSearched: texts.length };
}
