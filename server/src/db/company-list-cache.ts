import type { LiveBus } from "./live-bus";

/**
 * A company's busiest lists (its resolutions, its library, the record its compliance is scored from, its upcoming
 * meetings), kept by this instance until anything they show changes.
 * Every such change notifies every instance as it commits: a resolution created or decided, a vote (named by its
 * resolution, found among the ids a kept list holds), a document added or removed (which also takes citations), a
 * meeting; a session, user, membership or company change (names, who may vote) drops every list. The instance's
 * own writes drop every list as they finish, without waiting for their notification; while the listening connection
 * is down nothing is kept or trusted. A list answered from here makes no query.
 * What is kept is bounded by rows and by bytes in all, the lists read least recently going first; an answer larger
 * than the whole byte budget is not kept.
 */
export interface CompanyListCache {
  /** The kept answer of `list` for the company, or `load`'s (kept when nothing changed while it ran). */
  read<T>(companyId: number, list: string, now: number, load: () => Promise<{ value: T; ids: readonly number[] }>): Promise<T>;
  /** Drops every list: a write of this instance (or anything that may have changed what they show). */
  clear(): void;
}

/** A safety net only: every change that matters is heard at once. */
const maxAgeMs = 30_000;

export interface ListCacheBounds {
  /** Rows kept in all, whatever the companies: ten years of one board's papers are 3,000 (866 KB). */
  maxRows: number;
  /**
   * Bytes kept in all, counted as the answers' JSON: a row's texts are cut short (a note shows 300 characters), but
   * rows alone would not bound what a few wide lists hold.
   */
  maxBytes: number;
}

export const defaultListCacheBounds: ListCacheBounds = { maxRows: 50_000, maxBytes: 32 * 1024 * 1024 };

interface Entry {
  companyId: number;
  value: unknown;
  ids: ReadonlySet<number>;
  bytes: number;
  cachedAt: number;
}

export function createCompanyListCache(bus: LiveBus, bounds: ListCacheBounds = defaultListCacheBounds): CompanyListCache {
  // By company and list; a Map keeps insertion order, and a read moves its entry last, so the first is the least
  // recently used.
  const entries = new Map<string, Entry>();
  const keyOf = (companyId: number, list: string) => `${companyId}\u0000${list}`;
  let keptRows = 0;
  let keptBytes = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    keptRows -= entry.ids.size;
    keptBytes -= entry.bytes;
    entries.delete(key);
  };
  const deleteCompanies = (companyIds: ReadonlySet<number>) => {
    for (const [key, entry] of entries) if (companyIds.has(entry.companyId)) remove(key);
  };
  // A read that began before a change and ends after its notification was handled would put the old list back.
  let heard = 0;
  const clear = () => {
    heard += 1;
    entries.clear();
    keptRows = 0;
    keptBytes = 0;
  };
  const dropCompany = (companyId: number) => {
    heard += 1;
    deleteCompanies(new Set([companyId]));
  };
  const dropHolding = (id: number) => {
    heard += 1;
    const holders = new Set<number>();
    for (const entry of entries.values()) if (entry.ids.has(id)) holders.add(entry.companyId);
    if (holders.size > 0) deleteCompanies(holders);
  };
  bus.onLiveChange((change) => {
    switch (change.kind) {
      case "resolution":
      case "document":
        return dropCompany(change.companyId);
      case "meeting":
        return change.companyId !== undefined ? dropCompany(change.companyId) : dropHolding(change.meetingId);
      case "votes":
        return dropHolding(change.resolutionId);
      case "notification":
        return;
    }
  });
  bus.onAuthChange(({ sessionId, userId, companyId }) => {
    // A session shows in no list; a membership or a company changes who may vote there (its tallies) and nothing
    // elsewhere; a user's own change (their names) may show in the library of any of their companies.
    if (sessionId !== undefined) return;
    if (companyId !== undefined) return dropCompany(companyId);
    if (userId !== undefined) clear();
  });
  bus.onListeningChange(clear);

  return {
    async read(companyId, list, now, load) {
      const key = keyOf(companyId, list);
      if (bus.isListening()) {
        const entry = entries.get(key);
        const age = entry ? now - entry.cachedAt : -1;
        if (entry && age >= 0 && age < maxAgeMs) {
          entries.delete(key);
          entries.set(key, entry);
          return entry.value as Awaited<ReturnType<typeof load>>["value"];
        }
      }
      const epoch = heard;
      const { value, ids } = await load();
      if (bus.isListening() && epoch === heard && ids.length <= bounds.maxRows) {
        // What the answer will be sent as: a fair measure of what it holds, counted once, as it is kept.
        const bytes = Buffer.byteLength(JSON.stringify(value));
        remove(key);
        // An answer larger than the whole budget would only push every other list out, and itself next.
        if (bytes <= bounds.maxBytes) {
          const kept = new Set(ids);
          entries.set(key, { companyId, value, ids: kept, bytes, cachedAt: now });
          keptRows += kept.size;
          keptBytes += bytes;
          // The least recently used go first; the one just kept is last, and fits alone.
          for (const oldest of entries.keys()) {
            if (keptRows <= bounds.maxRows && keptBytes <= bounds.maxBytes) break;
            remove(oldest);
          }
        }
      }
      return value;
    },
    clear,
  };
}
