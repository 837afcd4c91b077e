import type { Database, DatabaseHandle, Listener } from "./client";

/**
 * How instances tell each other what changed: the triggers of migration 0007 send a NOTIFY as a write commits, and
 * each instance hears them on its one listening connection. Payloads carry ids only; what they name is read again.
 */
const authChannel = "quorum_auth";
const liveChannel = "quorum_live";

/** Something a cached session may depend on changed: a session, a user, a membership (user and company), a company. */
export interface AuthChange {
  sessionId?: number;
  userId?: number;
  companyId?: number;
}

/** Something an open event stream shows changed. A meeting's company is absent when a part of it changed. */
export type LiveChange =
  | { kind: "votes"; resolutionId: number }
  | { kind: "resolution"; resolutionId: number; companyId: number }
  | { kind: "notification"; notificationId: number; userId: number }
  | { kind: "meeting"; meetingId: number; companyId?: number }
  | { kind: "document"; documentId: number; companyId: number; change: "added" | "removed" };

export interface LiveBus {
  /** Whether this instance hears every notification now: false while its listening connection is down. */
  isListening(): boolean;
  onAuthChange(handler: (change: AuthChange) => void): () => void;
  onLiveChange(handler: (change: LiveChange) => void): () => void;
  /** Told when listening stops or resumes: while it was down, anything may have changed unheard. */
  onListeningChange(handler: (listening: boolean) => void): () => void;
  /** Queries on the listening connection while it is up (reads that should not queue behind the pool), else null. */
  reader(): Database | null;
  close(): Promise<void>;
}

export interface LiveBusOptions {
  /** Told when the listening connection fails or cannot be reopened (never with a payload). */
  onError?: (error: Error) => void;
  /** The first wait before reopening a lost connection; it doubles up to ten times that. */
  retryMs?: number;
}

function isId(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0 && value <= 2_147_483_647;
}

function parseAuthChange(payload: unknown): AuthChange | null {
  if (typeof payload !== "object" || payload === null) return null;
  const { s, u, c } = payload as Record<string, unknown>;
  const change: AuthChange = {};
  if (isId(s)) change.sessionId = s;
  if (isId(u)) change.userId = u;
  if (isId(c)) change.companyId = c;
  return Object.keys(change).length > 0 ? change : null;
}

function parseLiveChange(payload: unknown): LiveChange | null {
  if (typeof payload !== "object" || payload === null) return null;
  const { k, r, c, n, u, m, d, a } = payload as Record<string, unknown>;
  if (k === "v" && isId(r)) return { kind: "votes", resolutionId: r };
  if (k === "r" && isId(r) && isId(c)) return { kind: "resolution", resolutionId: r, companyId: c };
  if (k === "n" && isId(n) && isId(u)) return { kind: "notification", notificationId: n, userId: u };
  if (k === "m" && isId(m)) return isId(c) ? { kind: "meeting", meetingId: m, companyId: c } : { kind: "meeting", meetingId: m };
  if (k === "d" && isId(d) && isId(c) && (a === "added" || a === "removed"))
    return { kind: "document", documentId: d, companyId: c, change: a };
  return null;
}

/** Opens the instance's listening connection; resolves once it listens (a database that is down fails here). */
export async function openLiveBus(handle: Pick<DatabaseHandle, "listen">, options: LiveBusOptions = {}): Promise<LiveBus> {
  const retryMs = options.retryMs ?? 500;
  const authHandlers = new Set<(change: AuthChange) => void>();
  const liveHandlers = new Set<(change: LiveChange) => void>();
  const stateHandlers = new Set<(listening: boolean) => void>();
  let listener: Listener | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let nextWait = retryMs;

  // One failing handler must not keep the others from hearing the change.
  const each = <T>(handlers: Set<(value: T) => void>, value: T) => {
    for (const handler of handlers) {
      try {
        handler(value);
      } catch (error) {
        options.onError?.(error as Error);
      }
    }
  };

  const deliver = (channel: string, payload: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    if (channel === authChannel) {
      const change = parseAuthChange(parsed);
      if (change) each(authHandlers, change);
    } else if (channel === liveChannel) {
      const change = parseLiveChange(parsed);
      if (change) each(liveHandlers, change);
    }
  };

  const lost = (error: Error) => {
    if (closed) return;
    listener = null;
    options.onError?.(error);
    each(stateHandlers, false);
    scheduleReopen();
  };

  const scheduleReopen = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      handle
        .listen([authChannel, liveChannel], deliver, lost)
        .then((opened) => {
          if (closed) return void opened.close();
          listener = opened;
          nextWait = retryMs;
          each(stateHandlers, true);
        })
        .catch((error: Error) => {
          options.onError?.(error);
          nextWait = Math.min(nextWait * 2, retryMs * 10);
          scheduleReopen();
        });
    }, nextWait);
    retry.unref();
  };

  listener = await handle.listen([authChannel, liveChannel], deliver, lost);

  const subscribe =
    <T>(handlers: Set<(value: T) => void>) =>
    (handler: (value: T) => void) => {
      handlers.add(handler);
      return () => void handlers.delete(handler);
    };

  return {
    isListening: () => listener !== null,
    reader: () => listener?.db ?? null,
    onAuthChange: subscribe(authHandlers),
    onLiveChange: subscribe(liveHandlers),
    onListeningChange: subscribe(stateHandlers),
    /** Stops listening for good; what relied on it (the session cache, open streams) is told first. */
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(retry);
      const open = listener;
      listener = null;
      if (open) each(stateHandlers, false);
      await open?.close();
    },
  };
}
