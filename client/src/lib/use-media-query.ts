import { useCallback, useMemo, useSyncExternalStore } from "react";

/** Whether the CSS media query matches now; the component renders again when that changes. */
export function useMediaQuery(query: string): boolean {
  // One MediaQueryList per component and query, asked of the window it renders in (no list outlives its window).
  const list = useMemo(() => window.matchMedia(query), [query]);
  const subscribe = useCallback(
    (onChange: () => void) => {
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    [list],
  );
  return useSyncExternalStore(subscribe, () => list.matches);
}
