import {
  authChangeFields,
  changeChannels,
  liveChangeKinds,
  type AuthChange,
  type LiveChange,
  type LiveChangeField,
} from "../../../shared/live-change";
import type { Database, DatabaseHandle, Listener } from "./client";

/**
 * How instances tell each other what changed: the triggers of migration 0007 send a NOTIFY as a write commits, and
 * each instance hears them on its one listening connection. Payloads carry ids only (their shapes are declared in
 * shared/live-change.ts); what they name is read again.
 */
const authChannel = changeChannels.auth;
const liveChannel = changeChannels.live;

export type { AuthChange, LiveChange };

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

/** An auth change's payload: whichever declared ids it holds, or null when it holds none. */
export function parseAuthChange(payload: unknown): AuthChange | null {
  if (typeof payload !== "object" || payload === null) return null;
  const fields = payload as Record<string, unknown>;
  const change: AuthChange = {};
  for (const [key, name] of Object.entries(authChangeFields)) {
    const value = fields[key];
    if (isId(value)) change[name] = value;
  }
  return Object.keys(change).length > 0 ? change : null;
}

/** A live change's payload as its kind declares it; null for an unknown kind or a required field missing or malformed. */
export function parseLiveChange(payload: unknown): LiveChange | null {
  if (typeof payload !== "object" || payload === null) return null;
  const fields = payload as Record<string, unknown>;
  const key = fields.k;
  if (typeof key !== "string" || !Object.hasOwn(liveChangeKinds, key)) return null;
  const declared = liveChangeKinds[key as keyof typeof liveChangeKinds];
  const change: Record<string, unknown> = { kind: declared.kind };
  for (const [fieldKey, field] of Object.entries(declared.fields) as [string, LiveChangeField][]) {
    const value = fields[fieldKey];
    if (field.oneOf ? field.oneOf.includes(value as string) : isId(value)) change[field.name] = value;
    else if (!field.optional) return null;
  }
  return change as LiveChange;
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
