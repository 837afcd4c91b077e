import { maxQuoteLength } from "@shared/paper-reading";

/** Text selected on one page: what "Add note" pins a note to. */
export interface PageSelection {
  page: number;
  quote: string;
}

/** The page element of a node: the reader marks each page with `data-page`. */
function pageOf(node: Node | null): number | null {
  const element = node instanceof Element ? node : (node?.parentElement ?? null);
  const page = element?.closest<HTMLElement>("[data-page]")?.dataset.page;
  return page ? Number(page) : null;
}

/**
 * The selection as a note's quote, when it lies on one page of `within`: its words with runs of spaces made one,
 * cut to the longest quote a note keeps. Null for no selection, or one across pages or outside the reader.
 */
export function selectedQuote(selection: Selection | null, within: HTMLElement | null): PageSelection | null {
  if (!selection || selection.isCollapsed || selection.rangeCount === 0 || !within) return null;
  const { startContainer, endContainer } = selection.getRangeAt(0);
  if (!within.contains(startContainer) || !within.contains(endContainer)) return null;
  const page = pageOf(startContainer);
  if (page == null || pageOf(endContainer) !== page) return null;
  const quote = selection.toString().replace(/\s+/g, " ").trim().slice(0, maxQuoteLength).trim();
  return quote ? { page, quote } : null;
}
