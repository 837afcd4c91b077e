import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * Draws `children` once the placeholder comes within `margin` of the view, and at once where the browser cannot tell
 * (no IntersectionObserver). For a section below the fold whose code or rendering is heavy: the page is drawn and
 * answers sooner without it, and a reader scrolling down finds it drawn by the time it shows.
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
    return () => observer.disconnect();
  }, [near, margin]);
  return near ? children : <div ref={anchor}>{placeholder}</div>;
}
