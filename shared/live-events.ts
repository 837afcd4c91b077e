// No validation library here: the signed-in shell reads these types and constants on every page.
import type { ResolutionStatus } from "./resolutions";

/**
 * The live event stream (`GET /api/events`, text/event-stream). Each message has an `id:` (a decimal number that
 * grows with time), an `event:` naming one of the kinds below and a `data:` line of JSON. Events carry ids and the
 * new figures only, never more than the caller could read with GET; a comment line every 15 s keeps proxies from
 * closing the stream. A client that reconnects with `Last-Event-ID` is sent what it missed of the last 5 minutes.
 */
export const liveEventKinds = ["votes", "resolution", "notification", "meeting", "document"] as const;
export type LiveEventKind = (typeof liveEventKinds)[number];

/** What each kind's `data:` holds. */
export interface LiveEventData {
  /** A resolution's counts changed (a vote cast or changed). */
  votes: { resolutionId: number; yes: number; no: number; abstain: number; total: number };
  /** A resolution was decided (or its status otherwise changed). */
  resolution: { resolutionId: number; status: ResolutionStatus };
  /** A notification for the caller was created. */
  notification: { id: number };
  /** A meeting was scheduled, changed or removed. */
  meeting: { meetingId: number };
  /** A document was added to, replaced by a new version in, or removed from one of the caller's companies. */
  document: { documentId: number; change: "added" | "replaced" | "removed" };
}

export type LiveEvent = { [Kind in LiveEventKind]: { id: string; kind: Kind; data: LiveEventData[Kind] } }[LiveEventKind];

/** At most this many streams may be open at once on one session; one more is refused with 429. */
export const maxStreamsPerSession = 10;
/** How far back `Last-Event-ID` can resume. */
export const liveResumeWindowMs = 5 * 60_000;
/** A comment line this often keeps proxies and load balancers from closing an idle stream. */
export const liveHeartbeatMs = 15_000;
