import { startTransition, useEffect, useRef, useState, type ReactNode } from "react";

/** How long NearView waits for the browser to be idle before it draws its children anyway. */
const IDLE_TIMEOUT_MS = 3_000;

/**
 * Draws `children` once the placeholder comes within `margin` of the view, or once the browser is first idle after the
 * page has been drawn, whichever comes first (at once where the browser cannot tell what is near the view). For a
 * section below the fold whose code or rendering is heavy: the page is drawn and answers sooner without it, a reader
 * scrolling down finds it drawn by the time it shows, and a screen reader's list of headings finds it soon after the
 * page appears, without scrolling.
 */
export function NearView({ placeholder, margin = "200px", children }: { placeholder: ReactNode; margin?: string; children: ReactNode }) {
  const [near, setNear] = useState(() => typeof IntersectionObserver === "undefined");
  const anchor = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = anchor.current;
    if (near || !element) return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && setNear(true), {
      rootMargin: margin,
    });
    observer.observe(element);
    // In the background, in slices the browser can interleave with its own work.
    const drawWhenIdle = () => startTransition(() => setNear(true));
    let cancelIdle: () => void;
    if (typeof requestIdleCallback === "function") {
      const request = requestIdleCallback(drawWhenIdle, { timeout: IDLE_TIMEOUT_MS });
      cancelIdle = () => cancelIdleCallback(request);
    } else {
      const timer = setTimeout(drawWhenIdle, IDLE_TIMEOUT_MS);
      cancelIdle = () => clearTimeout(timer);
    }
    return () => {
      observer.disconnect();
      cancelIdle();
    };
  }, [near, margin]);
  return near ? children : <div ref={anchor}>{placeholder}</div>;
}
