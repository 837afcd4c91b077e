import type { LiveBus } from "./live-bus";
import { createCompanyListCache } from "./company-list-cache";

/**
 * What the kept lists may hold in all: a byte budget beside the row budget. A bus that always listens and never
 * notifies leaves only the bounds to decide what stays.
 */
const quietBus: LiveBus = {
  isListening: () => true,
  onAuthChange: () => () => undefined,
  onLiveChange: () => () => undefined,
  onListeningChange: () => () => undefined,
  reader: () => null,
  close: async () => undefined,
};

/** A list whose answer is `bytes` long as JSON (a string of `bytes - 2` characters and its quotes), one row. */
function listOf(bytes: number, id = 1) {
  let loads = 0;
  const load = async () => {
    loads += 1;
    return { value: "x".repeat(bytes - 2), ids: [id] };
  };
  return { load, loads: () => loads };
}

describe("the kept lists' bounds", () => {
  it("keeps lists up to the byte budget; past it the list read least recently goes first", async () => {
    const cache = createCompanyListCache(quietBus, { maxRows: 1_000, maxBytes: 1_000 });
    const [a, b, c] = [listOf(400), listOf(400), listOf(400)];
    await cache.read(1, "library", 0, a.load);
    await cache.read(2, "library", 0, b.load);
    // Read again: kept, and now the most recently used.
    await cache.read(1, "library", 0, a.load);
    expect([a.loads(), b.loads()]).toEqual([1, 1]);

    // 1,200 bytes would pass the budget: company 2's list, read least recently, goes.
    await cache.read(3, "library", 0, c.load);
    await cache.read(1, "library", 0, a.load);
    await cache.read(3, "library", 0, c.load);
    expect([a.loads(), c.loads()]).toEqual([1, 1]);
    await cache.read(2, "library", 0, b.load);
    expect(b.loads()).toBe(2);
  });

  it("never keeps an answer larger than the whole budget, nor drops the others for it", async () => {
    const cache = createCompanyListCache(quietBus, { maxRows: 1_000, maxBytes: 1_000 });
    const small = listOf(500);
    const huge = listOf(1_001);
    await cache.read(1, "library", 0, small.load);
    await cache.read(2, "library", 0, huge.load);
    await cache.read(2, "library", 0, huge.load);
    expect(huge.loads()).toBe(2);
    await cache.read(1, "library", 0, small.load);
    expect(small.loads()).toBe(1);
  });

  it("a list kept again is counted once: its new answer replaces the old in the budget", async () => {
    const cache = createCompanyListCache(quietBus, { maxRows: 1_000, maxBytes: 1_000 });
    const first = listOf(450);
    const other = listOf(450);
    await cache.read(1, "library", 0, first.load);
    await cache.read(2, "library", 0, other.load);
    // Past its age the list is loaded and kept again: 900 bytes in all, not 1,350, so the other stays.
    await cache.read(1, "library", 60_000, first.load);
    expect(first.loads()).toBe(2);
    await cache.read(1, "library", 60_000, first.load);
    await cache.read(2, "library", 0, other.load);
    expect([first.loads(), other.loads()]).toEqual([2, 1]);
  });

  it("still bounds the rows, whatever their bytes", async () => {
    const cache = createCompanyListCache(quietBus, { maxRows: 3, maxBytes: 1_000_000 });
    const rows = (ids: number[]) => {
      let loads = 0;
      return { load: async () => ((loads += 1), { value: ids, ids }), loads: () => loads };
    };
    const [a, b] = [rows([1, 2]), rows([3, 4])];
    await cache.read(1, "resolutions", 0, a.load);
    await cache.read(2, "resolutions", 0, b.load);
    await cache.read(2, "resolutions", 0, b.load);
    await cache.read(1, "resolutions", 0, a.load);
    expect([a.loads(), b.loads()]).toEqual([2, 1]);
  });
});
