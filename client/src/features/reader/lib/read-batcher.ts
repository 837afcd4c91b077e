import { maxPagesPerRead } from "@shared/paper-reading";

/** How long pages seen wait to be sent together: reading is slow, and one request per page would be many. */
export const readBatchDelayMs = 4_000;

/**
 * Gathers the pages a reader has seen and sends each one once, several at a time: after a pause, when a full batch
 * is waiting, or on `flush` (the reader closing). Pages whose sending failed may be sent again when seen again.
 */
export function createReadBatcher(send: (pages: number[]) => Promise<unknown>, delayMs = readBatchDelayMs) {
  const waiting = new Set<number>();
  const sent = new Set<number>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  function flush() {
    clearTimeout(timer);
    timer = undefined;
    if (waiting.size === 0) return;
    const pages = [...waiting].sort((a, b) => a - b);
    waiting.clear();
    for (const page of pages) sent.add(page);
    void send(pages).catch(() => {
      for (const page of pages) sent.delete(page);
    });
  }

  return {
    add(page: number) {
      if (sent.has(page) || waiting.has(page)) return;
      waiting.add(page);
      if (waiting.size >= maxPagesPerRead) return flush();
      clearTimeout(timer);
      timer = setTimeout(flush, delayMs);
    },
    flush,
  };
}

/** A page counts as seen once it has stayed in view this long. */
export const seenAfterMs = 1_000;

/** Calls `onSeen(page)` for each page that stays in view for `seenAfterMs`; a page leaving sooner starts again. */
export function createSeenTimer(onSeen: (page: number) => void, afterMs = seenAfterMs) {
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  return {
    visible(page: number, visible: boolean) {
      const timer = timers.get(page);
      if (visible && timer === undefined) {
        timers.set(
          page,
          setTimeout(() => {
            timers.delete(page);
            onSeen(page);
          }, afterMs),
        );
      } else if (!visible && timer !== undefined) {
        clearTimeout(timer);
        timers.delete(page);
      }
    },
    stop() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
