import { useEffect, useRef, type KeyboardEvent } from "react";

export interface ReaderKeyActions {
  page: number;
  pageCount: number;
  goTo: (page: number) => void;
  zoom: (direction: 1 | -1) => void;
  fit: () => void;
}

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/** The page a paging key leads to from `page`, or null for any other key. */
export function pageForKey(key: string, page: number, pageCount: number): number | null {
  switch (key) {
    case "PageDown":
      return Math.min(page + 1, pageCount);
    case "PageUp":
      return Math.max(page - 1, 1);
    case "Home":
      return 1;
    case "End":
      return pageCount;
    default:
      return null;
  }
}

/**
 * The reader's keys: Ctrl (⌘) + and − zoom the pages instead of the whole app, Ctrl 0 fits the width, wherever the
 * focus is while the reader is open; PageDown, PageUp, Home and End page through the document when the focus is in
 * the reader and not in a field. Answers the reader's onKeyDown.
 */
export function useReaderKeys(actions: ReaderKeyActions) {
  const latest = useRef(actions);
  useEffect(() => {
    latest.current = actions;
  });

  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      if (event.key === "+" || event.key === "=") latest.current.zoom(1);
      else if (event.key === "-" || event.key === "_") latest.current.zoom(-1);
      else if (event.key === "0") latest.current.fit();
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  return (event: KeyboardEvent<HTMLElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    const { page, pageCount, goTo } = latest.current;
    const next = pageForKey(event.key, page, pageCount);
    if (next == null) return;
    event.preventDefault();
    goTo(next);
  };
}
