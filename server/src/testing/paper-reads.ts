import * as packData from "../features/meeting-record/board-pack.data";

// The board pack's reads of papers' bytes on the main thread, watched or held by the tests.

/** Watches the pack's reads of paper bytes (they still happen): the ids read, in order. */
export function watchReads() {
  const spy = vi.spyOn(packData, "readPaperBytes");
  return { ids: () => spy.mock.calls.map(([, id]) => id), clear: () => spy.mockClear() };
}

/** Holds every read of a paper's bytes (on the main thread) until released: the builds stay under way. */
export function holdReads() {
  const read = packData.readPaperBytes;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const started: number[] = [];
  vi.spyOn(packData, "readPaperBytes").mockImplementation(async (...args) => {
    started.push(args[1]);
    await released;
    return read(...args);
  });
  return { started, release };
}
