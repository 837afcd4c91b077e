// What building board packs may take, and the refusals past it.
import type { ServiceDeps } from "../../app-deps";
import { HttpError } from "../../http/errors";

export type PackDeps = ServiceDeps<"db" | "clock" | "appSecret" | "logger" | "outbound">;

/**
 * What packs may take, so that no member asking for the pack of a long agenda of large papers, or asking many
 * times, can hold the server's memory and time. Papers beyond either of the first two limits are listed on their
 * item's page with a note instead of merged. Changed only by tests.
 */
export const packLimits = {
  /** Papers merged, a paper on several items counting once for each. */
  maxMergedPapers: 200,
  /** Bytes of papers read from storage (a paper on several items is read once). */
  maxPaperBytes: 300 * 1024 * 1024,
  /** Packs built at the same time in this process. */
  concurrentBuilds: 2,
  /** Builds waiting behind them; a request past these is answered 429. */
  queuedBuilds: 8,
  /**
   * Of those waiting, how many may be one company's: a company builds one pack at a time, so that a few of its
   * members cannot hold every build and the queue. A request past these is answered 429.
   */
  queuedBuildsPerCompany: 2,
  /** Larger packs are served as built but not kept: each is built again when next asked for. */
  maxStoredPackBytes: 50 * 1024 * 1024,
  /**
   * The longest a paper's read from storage may take (the worker's time cap stands still meanwhile): past it the
   * build fails as when storage fails, rather than waiting on storage that never answers.
   */
  paperReadMs: 60_000,
  /** A pack that could not be built is answered 503 without a new build for this long. */
  failureMemorySeconds: 60,
  /** Builds again after a worker died reading a paper, each time without that paper. */
  retries: 3,
  /** The Retry-After of a refusal. */
  retryAfterSeconds: 10,
};

export const packBusyMessage = "The board pack is being prepared for many requests. Try again in a moment.";
export const busy = () => new HttpError(429, packBusyMessage, { "Retry-After": String(packLimits.retryAfterSeconds) });
export const unbuilt = (retryAfterSeconds = packLimits.retryAfterSeconds) =>
  new HttpError(503, "The board pack could not be built. Try again later.", { "Retry-After": String(retryAfterSeconds) });
