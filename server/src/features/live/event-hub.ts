import { inArray } from "drizzle-orm";
import type { Response } from "express";
import {
  liveHeartbeatMs,
  liveResumeWindowMs,
  maxStreamsPerSession,
  type LiveEventData,
  type LiveEventKind,
} from "../../../../shared/live-events";
import type { ServiceDeps } from "../../app-deps";
import type { AuthChange } from "../../db/live-bus";
import { sessions } from "../../db/schema";
import { HttpError, unauthorized } from "../../http/errors";
import { limitTable } from "../../limits";
import { createChangeEvents, type Audience, type ChangeEventOptions } from "./change-events";
import { companiesOf, lapseTimes } from "./stream-access";

export interface EventHubOptions {
  /** Reads on the given connection (the listening one when it is up). */
  readResolutions: ChangeEventOptions["readResolutions"];
  /** However many votes land, a resolution's counts are read at most once in this long (per instance). */
  coalesceMs?: number;
  heartbeatMs?: number;
  /** A stream whose unsent output grows past this (a client that stops reading) is dropped. */
  maxBufferedBytes?: number;
  /** How many streams one user may hold open on this instance, across their sessions (LIMIT_EVENT_STREAMS_PER_USER). */
  maxStreamsPerUser?: number;
  /** Told when a read of the figures fails (never with a payload). */
  onError?: (error: Error) => void;
}

interface SentEvent {
  id: number;
  audience: Audience;
  /** The event as written to the stream. */
  text: string;
  at: number;
}

interface Stream {
  sessionId: number;
  userId: number;
  /** The companies whose events it receives: the user's memberships, less those that require a second factor the session did not pass. */
  companies: Set<number>;
  res: Response;
  /** When its session may have lapsed (the app's clock, ms): the stream is checked again then, and ends if it has. */
  lapsesAt: number;
}

/** Events kept for resuming: the last five minutes, and never more than this many (plus a trim batch). */
const maxKeptEvents = 20_000;
const trimBatch = 1_000;
const trimSlackMs = 10_000;
/** A stream refused for the number open is worth trying again once a tab has had time to close. */
const tooManyStreamsRetryAfter = { "Retry-After": "30" };

/**
 * The open event streams of this instance and what they are sent. Every instance hears every change (the live bus)
 * and reads its figures once for all its streams; ids grow with time, so an id from one instance resumes on another.
 */
export function createEventHub(deps: ServiceDeps<"db" | "live" | "clock">, options: EventHubOptions) {
  const { db, live, clock } = deps;
  const coalesceMs = options.coalesceMs ?? 250;
  const maxBufferedBytes = options.maxBufferedBytes ?? 256 * 1024;
  const maxStreamsPerUser = options.maxStreamsPerUser ?? limitTable.eventStreamsPerUser.count;
  const streams = new Set<Stream>();
  const bySession = new Map<number, Set<Stream>>();
  const byUser = new Map<number, Set<Stream>>();
  const kept: SentEvent[] = [];
  let lastId = 0;

  const add = <K>(index: Map<K, Set<Stream>>, key: K, stream: Stream) => {
    let set = index.get(key);
    if (!set) index.set(key, (set = new Set()));
    set.add(stream);
  };
  const remove = <K>(index: Map<K, Set<Stream>>, key: K, stream: Stream) => {
    const set = index.get(key);
    set?.delete(stream);
    if (set?.size === 0) index.delete(key);
  };

  const drop = (stream: Stream, how: "end" | "destroy") => {
    if (!streams.delete(stream)) return;
    remove(bySession, stream.sessionId, stream);
    remove(byUser, stream.userId, stream);
    if (how === "end") stream.res.end();
    else stream.res.destroy();
  };

  const write = (stream: Stream, text: string) => {
    // A client that does not read: its stream is dropped, not buffered without end in this process.
    if (stream.res.writableLength > maxBufferedBytes) return drop(stream, "destroy");
    stream.res.write(text);
  };

  const reaches = (stream: Stream, audience: Audience) =>
    "userId" in audience ? stream.userId === audience.userId : stream.companies.has(audience.companyId);

  function publish<K extends LiveEventKind>(kind: K, data: LiveEventData[K], audience: Audience): void {
    // Wall time, not the app's clock: ids grow with it (in microseconds), so another instance's id is a place in the
    // same order, and the resume window is real minutes.
    const now = Date.now();
    const id = Math.max(lastId + 1, now * 1000);
    lastId = id;
    const event: SentEvent = { id, audience, text: `id: ${id}\nevent: ${kind}\ndata: ${JSON.stringify(data)}\n\n`, at: now };
    kept.push(event);
    // Trimmed in batches: shifting one at a time would move the whole array on every event of a burst.
    if (kept.length > maxKeptEvents + trimBatch || now - kept[0]!.at > liveResumeWindowMs + trimSlackMs) {
      let stale = Math.max(0, kept.length - maxKeptEvents);
      while (stale < kept.length && now - kept[stale]!.at > liveResumeWindowMs) stale += 1;
      kept.splice(0, stale);
    }
    const targets = "userId" in audience ? (byUser.get(audience.userId) ?? []) : streams;
    for (const stream of targets) if (reaches(stream, audience)) write(stream, event.text);
  }

  // --- Who may see what ---
  /** Reads again what the streams of these users may receive. */
  async function refreshCompanies(userIds: readonly number[]): Promise<void> {
    const sessionIds = new Set<number>();
    for (const userId of userIds) for (const stream of byUser.get(userId) ?? []) sessionIds.add(stream.sessionId);
    if (sessionIds.size === 0) return;
    const fresh = await companiesOf(db, [...sessionIds]);
    for (const [sessionId, companyIds] of fresh)
      for (const stream of bySession.get(sessionId) ?? []) stream.companies = new Set(companyIds);
  }

  async function closeRevoked(sessionIds: readonly number[]): Promise<void> {
    const open = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(inArray(sessions.id, [...sessionIds]));
    const still = new Set(open.map((row) => row.id));
    for (const sessionId of sessionIds) {
      if (still.has(sessionId)) continue;
      for (const stream of [...(bySession.get(sessionId) ?? [])]) drop(stream, "end");
    }
  }

  /**
   * A stream outlives no session: those whose session has reached its lapse time are read again (other requests may
   * have used the session since), in one query, and end if it has expired, idled out or gone.
   */
  async function closeLapsed(): Promise<void> {
    const now = clock.now().getTime();
    const due = new Set<number>();
    for (const stream of streams) if (stream.lapsesAt <= now) due.add(stream.sessionId);
    if (due.size === 0) return;
    const lapses = await lapseTimes(db, [...due]);
    for (const sessionId of due) {
      const lapsesAt = lapses.get(sessionId);
      for (const stream of [...(bySession.get(sessionId) ?? [])]) {
        if (lapsesAt === undefined || lapsesAt <= now) drop(stream, "end");
        else stream.lapsesAt = lapsesAt;
      }
    }
  }

  const onAuthChange = ({ sessionId, userId, companyId }: AuthChange) => {
    const failed = (error: Error) => options.onError?.(error);
    if (sessionId !== undefined) {
      // A session revoked ends its streams; one that passed a second factor since may now receive more.
      const userId = bySession.get(sessionId)?.values().next().value?.userId;
      if (userId !== undefined)
        closeRevoked([sessionId])
          .then(() => refreshCompanies([userId]))
          .catch(failed);
      return;
    }
    if (userId !== undefined) {
      const own = byUser.get(userId);
      if (!own) return;
      // A membership that changed stops that company's events at once; the read below gives back what still holds.
      if (companyId !== undefined) for (const stream of own) stream.companies.delete(companyId);
      refreshCompanies([userId]).catch(failed);
      return;
    }
    if (companyId !== undefined) {
      const affected = new Set<number>();
      for (const stream of streams) if (stream.companies.has(companyId)) affected.add(stream.userId);
      refreshCompanies([...affected]).catch(failed);
    }
  };

  // Nothing is heard while the listening connection is down: streams end, and clients poll until it is back.
  const onListeningChange = (listening: boolean) => {
    if (!listening) for (const stream of [...streams]) drop(stream, "end");
  };

  const changeEvents = createChangeEvents(deps, {
    readResolutions: options.readResolutions,
    coalesceMs,
    onError: options.onError,
    anyStreams: () => streams.size > 0,
    publish,
  });
  live.onLiveChange(changeEvents.onLiveChange);
  live.onAuthChange(onAuthChange);
  live.onListeningChange(onListeningChange);
  const heartbeat = setInterval(() => {
    for (const stream of [...streams]) write(stream, ": keep-alive\n\n");
    closeLapsed().catch((error: Error) => options.onError?.(error));
  }, options.heartbeatMs ?? liveHeartbeatMs);
  heartbeat.unref();

  function refuseBeyondLimits(caller: { sessionId: number; userId: number }): void {
    if ((bySession.get(caller.sessionId)?.size ?? 0) >= maxStreamsPerSession) {
      throw new HttpError(
        429,
        `At most ${maxStreamsPerSession} live update streams may be open at once; close one and try again`,
        tooManyStreamsRetryAfter,
      );
    }
    if ((byUser.get(caller.userId)?.size ?? 0) >= maxStreamsPerUser) {
      throw new HttpError(429, limitTable.eventStreamsPerUser.message, tooManyStreamsRetryAfter);
    }
  }

  return {
    /**
     * Opens a stream on `res` for the caller: refused (503) while this instance cannot hear changes and (429 with
     * Retry-After) past the session's limit or the user's (all their sessions); `resumeFrom` is the Last-Event-ID the
     * client sent back.
     */
    async open(caller: { sessionId: number; userId: number }, res: Response, resumeFrom: number | null): Promise<void> {
      if (!live.isListening()) throw new HttpError(503, "Live updates are unavailable right now; try again shortly");
      refuseBeyondLimits(caller);
      // What is published while the companies are read is sent from the kept events once they are known.
      const before = lastId;
      const [companiesBySession, lapses] = await Promise.all([companiesOf(db, [caller.sessionId]), lapseTimes(db, [caller.sessionId])]);
      const companyIds = companiesBySession.get(caller.sessionId)!;
      // The client may have gone while its companies were read: nothing is left to hold.
      if (res.req.destroyed || res.writableEnded) return;
      refuseBeyondLimits(caller);
      // A session gone since the request was authenticated opens nothing.
      const lapsesAt = lapses.get(caller.sessionId);
      if (lapsesAt === undefined || lapsesAt <= clock.now().getTime()) throw unauthorized();
      const stream: Stream = { ...caller, companies: companyIds, res, lapsesAt };
      streams.add(stream);
      add(bySession, stream.sessionId, stream);
      add(byUser, stream.userId, stream);
      res.req.once("close", () => drop(stream, "end"));
      res.status(200);
      res.set({
        "Content-Type": "text/event-stream; charset=utf-8",
        // no-transform: compression would hold events back to fill its buffer.
        "Cache-Control": "no-store, no-transform",
        "X-Accel-Buffering": "no",
      });
      res.flushHeaders();
      res.write(": connected\n\n");
      const since = resumeFrom ?? before;
      for (const event of kept) if (event.id > since && reaches(stream, event.audience)) write(stream, event.text);
    },
    /** How many streams are open (benchmarks and tests). */
    size: () => streams.size,
    close() {
      clearInterval(heartbeat);
      changeEvents.close();
      for (const stream of [...streams]) drop(stream, "end");
    },
  };
}

export type EventHub = ReturnType<typeof createEventHub>;
