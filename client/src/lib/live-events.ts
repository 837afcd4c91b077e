import { useSyncExternalStore } from "react";
import * as api from "@shared/api/events";
import { liveEventKinds, liveHeartbeatMs, type LiveEventData, type LiveEventKind } from "@shared/live-events";
import { apiUrl } from "@/lib/api-client";

// The server's live event stream, kept open while someone is signed in. This module knows no feature: the app
// hands it what to do with each kind of event. It ships with the signed-in shell, so it stays small and zod-free.

/** What the app does with each kind of event, and after a gap in the stream. */
export type LiveEventHandlers = { [Kind in LiveEventKind]: (data: LiveEventData[Kind]) => void } & {
  /** The stream is open again after being down: whatever it missed meanwhile is read again. */
  resync: () => void;
};

// ---- whether the stream is open: screens that poll without it read this -------------------------------------

let connected = false;
const listeners = new Set<() => void>();

function setConnected(value: boolean): void {
  if (connected === value) return;
  connected = value;
  for (const listener of listeners) listener();
}

export function subscribeLiveConnection(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isLiveConnected(): boolean {
  return connected;
}

/** Whether the live stream is open now, re-rendering when that changes. */
export function useLiveConnected(): boolean {
  return useSyncExternalStore(subscribeLiveConnection, isLiveConnected, () => false);
}

// ---- the connection ---------------------------------------------------------------------------------------

/** The first wait after a refusal or repeated failures; it doubles with each failure in a row, up to the cap. */
export const LIVE_RETRY_BASE_MS = 5_000;
export const LIVE_RETRY_MAX_MS = 5 * 60_000;

/**
 * Opens the stream and hands each event to `handlers`; returns the function that closes it. Without EventSource
 * it does nothing, and screens keep polling as they would with the stream down.
 */
export function openLiveEvents(handlers: LiveEventHandlers): () => void {
  if (typeof EventSource === "undefined") return () => undefined;
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  // Failures in a row, counted until a connection stays up long enough to have heard the server's heartbeat.
  let failures = 0;
  let openedAt: number | null = null;
  // The first open follows the page's own reads closely: reading everything again then would double each first load.
  let missedEvents = false;

  const connect = () => {
    const current = new EventSource(apiUrl(api.openEventStream));
    source = current;
    current.addEventListener("open", () => {
      openedAt = Date.now();
      setConnected(true);
      if (missedEvents) handlers.resync();
      missedEvents = false;
    });
    current.addEventListener("error", () => {
      setConnected(false);
      missedEvents = true;
      if (openedAt !== null && Date.now() - openedAt > liveHeartbeatMs) failures = 0;
      openedAt = null;
      failures += 1;
      // A dropped stream the browser reopens by itself, resuming from Last-Event-ID. It gives up on a refusal
      // (401 once the session is revoked, 429 beyond the streams a session may hold); then, or when its own retries
      // keep failing, we close it and wait longer each time, with jitter so many tabs do not come back at once.
      if (current.readyState !== EventSource.CLOSED && failures < 2) return;
      current.close();
      const wait = Math.min(LIVE_RETRY_MAX_MS, LIVE_RETRY_BASE_MS * 2 ** (failures - 1));
      retry = setTimeout(connect, wait / 2 + (Math.random() * wait) / 2);
    });
    for (const kind of liveEventKinds) {
      current.addEventListener(kind, (event) => {
        const data = parse((event as MessageEvent<string>).data);
        if (data) (handlers[kind] as (data: object) => void)(data);
      });
    }
  };

  connect();
  return () => {
    clearTimeout(retry);
    source?.close();
    setConnected(false);
  };
}

function parse(text: string): object | null {
  try {
    const data: unknown = JSON.parse(text);
    return typeof data === "object" && data !== null ? data : null;
  } catch {
    return null;
  }
}
