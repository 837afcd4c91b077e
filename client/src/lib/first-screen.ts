import { useSyncExternalStore } from "react";

// On a first load with a session stored, the reads of the frame that the first screen can do without (the bell's
// count, the platform-admin check, the display switches, the dashboard's action items below its first screen) wait
// until that screen is drawn: over a slow link they would share the six connections and the main thread with what
// the screen is waiting for, and Lighthouse counted them into the dashboard's largest paint. Any other time (signed
// in from the sign-in page, in a test that renders a page alone) nothing waits.

let waiting = false;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** At the start of a first load with a session stored (app/router.tsx): those reads wait for the first screen. */
export function waitForFirstScreen(): void {
  waiting = true;
  notify();
}

/** Once the signed-in app's first screen has been painted (app/layout/app-shell.tsx): they go. */
export function markFirstScreenDrawn(): void {
  if (!waiting) return;
  waiting = false;
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether a read that can wait for the first screen may go now; the component renders again when it may. */
export function useFirstScreenDrawn(): boolean {
  return !useSyncExternalStore(
    subscribe,
    () => waiting,
    () => waiting,
  );
}
