import type { LiveBus } from "../../db/live-bus";

/**
 * The vote poll's reads, by resolution and reader, kept by this instance until anything they depend on changes.
 * Every such change notifies every instance as it commits (a vote written or withdrawn, a decision, a membership or
 * company change: who may vote, and so whose votes count), and the entries it touches are dropped before the next
 * request is read; while the listening connection is down nothing is kept or trusted. A conflict declared by one who
 * has not voted changes no count; one who had voted loses the vote, which is announced. Whether a deadline has
 * passed is decided from the kept read and the clock at each poll. A poll answered from here makes no query.
 */
export interface VotePollCache<T extends { companyId: number }> {
  lookup(resolutionId: number, userId: number, now: number): T | undefined;
  /** Counts what the cache heard; `remember` keeps a read only if nothing was heard since it began. */
  epoch(): number;
  remember(resolutionId: number, userId: number, read: T, now: number, epochBeforeRead: number): void;
  /** This instance's own write to the resolution: forgotten at once, without waiting for its notification. */
  forget(resolutionId: number): void;
}

/** A safety net only: every change that matters is heard at once. */
const maxAgeMs = 30_000;
/** Reads kept in all (each a few hundred bytes: no texts). */
const maxEntries = 50_000;

interface Entry<T> {
  read: T;
  cachedAt: number;
}

export function createVotePollCache<T extends { companyId: number }>(bus: LiveBus): VotePollCache<T> {
  const byResolution = new Map<number, Map<number, Entry<T>>>();
  let entries = 0;
  let heard = 0;
  const deleteResolution = (resolutionId: number) => {
    entries -= byResolution.get(resolutionId)?.size ?? 0;
    byResolution.delete(resolutionId);
  };
  const forget = (resolutionId: number) => {
    heard += 1;
    deleteResolution(resolutionId);
  };
  const forgetCompany = (companyId: number) => {
    heard += 1;
    for (const [resolutionId, readers] of byResolution) {
      const first = readers.values().next().value;
      if (first?.read.companyId === companyId) deleteResolution(resolutionId);
    }
  };
  bus.onLiveChange((change) => {
    if (change.kind === "votes" || change.kind === "resolution") forget(change.resolutionId);
  });
  // A membership's change names its company: who may vote there, and so the counts, may have changed.
  bus.onAuthChange(({ companyId }) => {
    if (companyId !== undefined) forgetCompany(companyId);
  });
  bus.onListeningChange(() => {
    heard += 1;
    byResolution.clear();
    entries = 0;
  });

  return {
    lookup(resolutionId, userId, now) {
      if (!bus.isListening()) return undefined;
      const entry = byResolution.get(resolutionId)?.get(userId);
      if (!entry) return undefined;
      const age = now - entry.cachedAt;
      if (age < 0 || age >= maxAgeMs) {
        if (byResolution.get(resolutionId)?.delete(userId)) entries -= 1;
        return undefined;
      }
      return entry.read;
    },
    epoch: () => heard,
    remember(resolutionId, userId, read, now, epochBeforeRead) {
      if (!bus.isListening() || epochBeforeRead !== heard) return;
      let readers = byResolution.get(resolutionId);
      if (!readers) byResolution.set(resolutionId, (readers = new Map()));
      if (!readers.has(userId)) entries += 1;
      readers.set(userId, { read, cachedAt: now });
      // The resolutions kept longest go first (a Map keeps insertion order), never the one just read.
      for (const oldest of byResolution.keys()) {
        if (entries <= maxEntries || oldest === resolutionId) break;
        deleteResolution(oldest);
      }
    },
    forget,
  };
}
