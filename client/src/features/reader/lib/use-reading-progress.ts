import { useEffect, useMemo } from "react";
import { createReadBatcher, createSeenTimer } from "@/features/reader/lib/read-batcher";

/**
 * Reports the pages seen (in view for a second) through `send`, a few at a time, and whatever is left when the
 * reader closes or the tab is hidden. Answers what the pages view calls as pages come into and leave view; without
 * `send` (the board pack, whose pages are not a paper's) it does nothing.
 */
export function useReadingProgress(send: ((pages: number[]) => Promise<unknown>) | null) {
  const tracker = useMemo(() => {
    if (!send) return null;
    const batcher = createReadBatcher(send);
    return { batcher, seen: createSeenTimer((page) => batcher.add(page)) };
  }, [send]);

  useEffect(() => {
    if (!tracker) return;
    const onHide = () => document.visibilityState === "hidden" && tracker.batcher.flush();
    document.addEventListener("visibilitychange", onHide);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      tracker.seen.stop();
      tracker.batcher.flush();
    };
  }, [tracker]);

  return useMemo(() => (tracker ? (page: number, readable: boolean) => tracker.seen.visible(page, readable) : () => undefined), [tracker]);
}
