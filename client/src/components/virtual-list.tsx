import { defaultRangeExtractor, measureElement, useWindowVirtualizer, type Range } from "@tanstack/react-virtual";
import { useCallback, useLayoutEffect, useRef, useState, useSyncExternalStore, type FocusEvent, type ReactNode } from "react";
import { cn } from "@/lib/utils";

/** From this viewport width up (a CSS length, as the stylesheet's breakpoints are written), `count` items a row. */
export interface ColumnBreakpoint {
  minWidth: string;
  count: number;
}

/** Rows rendered beyond each edge of the viewport: Tab and Shift+Tab always find the next row already there. */
const OVERSCAN_ROWS = 4;

function columnCount(breakpoints: readonly ColumnBreakpoint[]): number {
  if (typeof window.matchMedia !== "function") return 1;
  let count = 1;
  for (const { minWidth, count: atWidth } of breakpoints) if (window.matchMedia(`(min-width: ${minWidth})`).matches) count = atWidth;
  return count;
}

/** Items a row at the current viewport width, following the same media queries as the stylesheet. */
function useColumns(breakpoints: readonly ColumnBreakpoint[]): number {
  const subscribe = useCallback(
    (listener: () => void) => {
      if (typeof window.matchMedia !== "function") return () => {};
      const queries = breakpoints.map(({ minWidth }) => window.matchMedia(`(min-width: ${minWidth})`));
      for (const query of queries) query.addEventListener("change", listener);
      return () => {
        for (const query of queries) query.removeEventListener("change", listener);
      };
    },
    [breakpoints],
  );
  return useSyncExternalStore(
    subscribe,
    () => columnCount(breakpoints),
    () => 1,
  );
}

const noBreakpoints: readonly ColumnBreakpoint[] = [];

/**
 * A list of any length that renders only the rows on screen (and a few beyond each edge), scrolled by the page
 * itself. It is a list to assistive technology: each item a listitem that carries its position and the list's
 * length (aria-posinset, aria-setsize), so "12 of 3,000" is announced though 20 are in the document. The row that
 * last held focus stays rendered wherever the page is scrolled, so focus is never dropped with it; Tab reaches every
 * row, since the rows beyond the viewport's edge are rendered before focus moves into view.
 *
 * Rows are measured as they render (a row may wrap). Where nothing can be measured (no layout, as under jsdom),
 * rows count as `estimateSize` tall and the viewport as the window's size: the first window of rows is rendered.
 */
export function VirtualList<T>({
  items,
  getKey,
  renderItem,
  estimateSize,
  gap,
  columns = noBreakpoints,
  label,
  className,
  itemClassName,
}: {
  items: readonly T[];
  getKey: (item: T) => string | number;
  renderItem: (item: T) => ReactNode;
  /** A row's height in px before it is measured. */
  estimateSize: number;
  /** Space between rows and between the items of a row, in px. */
  gap: number;
  /** More than one item a row from these widths up (a grid); one a row by default. Pass a constant. */
  columns?: readonly ColumnBreakpoint[];
  /** Names the list for screen readers. */
  label?: string;
  className?: string;
  itemClassName?: string;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  const [focusedKey, setFocusedKey] = useState<string | number | null>(null);
  const perRow = useColumns(columns);
  const rowCount = Math.ceil(items.length / perRow);

  const focusedIndex = focusedKey === null ? -1 : items.findIndex((item) => getKey(item) === focusedKey);
  const focusedRow = focusedIndex < 0 ? -1 : Math.floor(focusedIndex / perRow);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const rows = defaultRangeExtractor(range);
      if (focusedRow < 0 || focusedRow >= range.count || rows.includes(focusedRow)) return rows;
      return [...rows, focusedRow].sort((a, b) => a - b);
    },
    [focusedRow],
  );
  // A row is known by its first item, so a row measured before a search keeps its height only if it still starts there.
  const getItemKey = useCallback((row: number) => `${getKey(items[row * perRow]!)}/${perRow}`, [items, perRow, getKey]);

  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => estimateSize,
    gap,
    overscan: OVERSCAN_ROWS,
    scrollMargin,
    getItemKey,
    rangeExtractor,
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    // A row that measures nothing has no layout to measure (a real row has at least its border): keep the estimate.
    measureElement: (element, entry, instance) => measureElement(element, entry, instance) || estimateSize,
  });

  // Where the list starts on the page. What lies above it (header, search, tabs) may change height later (a font
  // arrives, a line wraps at another width): whatever moves it also resizes the body, which is watched.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const measure = () => {
      const top = list.getBoundingClientRect().top + window.scrollY;
      setScrollMargin((current) => (Math.abs(top - current) >= 1 ? top : current));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const key = (event.target as Element).closest<HTMLElement>("[data-item-key]")?.dataset.itemKey;
    const item = key === undefined ? undefined : items.find((candidate) => String(getKey(candidate)) === key);
    if (item !== undefined) setFocusedKey(getKey(item));
  };

  return (
    <div
      ref={listRef}
      role="list"
      aria-label={label}
      onFocus={onFocus}
      className={cn("relative w-full", className)}
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((row) => {
        const first = row.index * perRow;
        return (
          <div
            key={row.key}
            ref={virtualizer.measureElement}
            data-index={row.index}
            role="none"
            className="absolute top-0 left-0 grid w-full items-stretch"
            style={{
              transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
              gridTemplateColumns: `repeat(${perRow}, minmax(0, 1fr))`,
              columnGap: gap,
            }}
          >
            {items.slice(first, first + perRow).map((item, offset) => (
              <div
                key={getKey(item)}
                role="listitem"
                aria-setsize={items.length}
                aria-posinset={first + offset + 1}
                data-item-key={getKey(item)}
                className={itemClassName}
              >
                {renderItem(item)}
              </div>
            ))}
          </div>
        );
      })}
    </div>
  );
}
