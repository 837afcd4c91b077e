import type { RequestHandler } from "express";
import type { LiveBus } from "../db/live-bus";

/**
 * A company's busiest lists (its resolutions, its library, the record its compliance is scored from), kept by this
 * instance until anything they show changes.
 * Every such change notifies every instance as it commits: a resolution created or decided, a vote (named by its
 * resolution, found among the ids a kept list holds), a document added or removed (which also takes citations), a
 * meeting; a session, user, membership or company change (names, who may vote) drops every list. The instance's
 * own writes drop every list as they finish, without waiting for their notification; while the listening connection
 * is down nothing is kept or trusted. A list answered from here makes no query.
 */
export interface CompanyListCache {
  /** The kept answer of `list` for the company, or `load`'s (kept when nothing changed while it ran). */
  read<T>(companyId: number, list: string, now: number, load: () => Promise<{ value: T; ids: readonly number[] }>): Promise<T>;
  /** Drops every list: a write of this instance (or anything that may have changed what they show). */
  clear(): void;
  /** Express middleware: a write (any method but GET and HEAD) clears the lists as it finishes. */
  clearAfterWrites: RequestHandler;
}

/** A safety net only: every change that matters is heard at once. */
const maxAgeMs = 30_000;
/** Rows kept in all, whatever the companies: ten years of one board's papers are 3,000 (866 KB). */
const maxKeptRows = 50_000;

interface Entry {
  value: unknown;
  ids: ReadonlySet<number>;
  cachedAt: number;
}

export function createCompanyListCache(bus: LiveBus): CompanyListCache {
  const byCompany = new Map<number, Map<string, Entry>>();
  let keptRows = 0;
  const rowsOf = (lists: Map<string, Entry>) => [...lists.values()].reduce((sum, entry) => sum + entry.ids.size, 0);
  const deleteCompany = (companyId: number) => {
    const lists = byCompany.get(companyId);
    if (!lists) return;
    keptRows -= rowsOf(lists);
    byCompany.delete(companyId);
  };
  // A read that began before a change and ends after its notification was handled would put the old list back.
  let heard = 0;
  const clear = () => {
    heard += 1;
    byCompany.clear();
    keptRows = 0;
  };
  const dropCompany = (companyId: number) => {
    heard += 1;
    deleteCompany(companyId);
  };
  const dropHolding = (id: number) => {
    heard += 1;
    for (const [companyId, lists] of byCompany) {
      for (const entry of lists.values()) {
        if (!entry.ids.has(id)) continue;
        deleteCompany(companyId);
        break;
      }
    }
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
      if (bus.isListening()) {
        const entry = byCompany.get(companyId)?.get(list);
        const age = entry ? now - entry.cachedAt : -1;
        if (entry && age >= 0 && age < maxAgeMs) return entry.value as Awaited<ReturnType<typeof load>>["value"];
      }
      const epoch = heard;
      const { value, ids } = await load();
      if (bus.isListening() && epoch === heard && ids.length <= maxKeptRows) {
        let lists = byCompany.get(companyId);
        if (!lists) byCompany.set(companyId, (lists = new Map()));
        const kept = new Set(ids);
        keptRows += kept.size - (lists.get(list)?.ids.size ?? 0);
        lists.set(list, { value, ids: kept, cachedAt: now });
        // The companies kept longest go first (a Map keeps insertion order), never the one just read.
        for (const oldest of byCompany.keys()) {
          if (keptRows <= maxKeptRows || oldest === companyId) break;
          deleteCompany(oldest);
        }
      }
      return value;
    },
    clear,
    clearAfterWrites: (req, res, next) => {
      // "close" comes after "finish", and also when the client left before the answer: the write may still have committed.
      // Only a signed-in caller's: nobody else can write what a list shows (and a stranger's requests must not empty them).
      if (req.method !== "GET" && req.method !== "HEAD") res.once("close", () => req.auth && clear());
      next();
    },
  };
}
