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
const maxResolutions = 1_000;
const maxReadersPerResolution = 1_000;

interface Entry<T> {
  read: T;
  cachedAt: number;
}

export function createVotePollCache<T extends { companyId: number }>(bus: LiveBus): VotePollCache<T> {
  const byResolution = new Map<number, Map<number, Entry<T>>>();
  let heard = 0;
  const forget = (resolutionId: number) => {
    heard += 1;
    byResolution.delete(resolutionId);
  };
  const forgetCompany = (companyId: number) => {
    heard += 1;
    for (const [resolutionId, readers] of byResolution) {
      const first = readers.values().next().value;
      if (first?.read.companyId === companyId) byResolution.delete(resolutionId);
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
  });

  return {
    lookup(resolutionId, userId, now) {
      if (!bus.isListening()) return undefined;
      const entry = byResolution.get(resolutionId)?.get(userId);
      if (!entry) return undefined;
      const age = now - entry.cachedAt;
      if (age < 0 || age >= maxAgeMs) {
        byResolution.get(resolutionId)?.delete(userId);
        return undefined;
      }
      return entry.read;
    },
    epoch: () => heard,
    remember(resolutionId, userId, read, now, epochBeforeRead) {
      if (!bus.isListening() || epochBeforeRead !== heard) return;
      let readers = byResolution.get(resolutionId);
      if (!readers) {
        // The oldest resolution goes first (a Map keeps insertion order).
        if (byResolution.size >= maxResolutions) byResolution.delete(byResolution.keys().next().value!);
        byResolution.set(resolutionId, (readers = new Map()));
      }
      if (readers.size >= maxReadersPerResolution && !readers.has(userId)) readers.delete(readers.keys().next().value!);
      readers.set(userId, { read, cachedAt: now });
    },
    forget,
  };
}
