// The board pack from the request's side: built in a PDF worker, in turn, kept once built, and served again.
import { HttpError } from "../../http/errors";
import type { PackData } from "./board-pack.data";
import { buildInWorker } from "./board-pack.attempts";
import { busy, packLimits, unbuilt, type PackDeps } from "./board-pack.limits";
import { storePack } from "./board-pack.store";
import { PdfJobAbandoned } from "./pdf-jobs";

/**
 * Builds under way (at most `concurrentBuilds`), the companies they are for (one each), those waiting in order, and
 * each user's builds under way or waiting.
 */
let building = 0;
const buildingFor = new Set<number>();
const waiting: { companyId: number; start: () => void }[] = [];
const buildsOf = new Map<number, number>();

/** Packs (by ETag) that could not be built lately, and until when a request for them is answered 503 at once. */
const failedLately = new Map<string, number>();

/** A build under way, shared by every request for the same pack (the same ETag) while it lasts. */
interface Shared {
  result: Promise<Uint8Array>;
  /** Requests still waiting for it: when the last has gone, the build is dropped. */
  callers: number;
  drop: AbortController;
}
const underWay = new Map<string, Shared>();

/** Builds under way and waiting in this process (for tests and the logs). */
export function packQueue(): { building: number; waiting: number } {
  return { building, waiting: waiting.length };
}

/**
 * The meeting's pack, built in a worker and then stored under its tag (unless larger than `maxStoredPackBytes`, or
 * built without a paper after a cap other than memory's). A request for a pack already being built waits for that
 * build. A company's builds run one at a time, the others waiting. A new build is refused (429) when the user
 * already has one under way or waiting, or when it would wait and `queuedBuilds` wait already, or
 * `queuedBuildsPerCompany` of its company's. A pack that could not be built (503) is answered 503 at once for
 * `failureMemorySeconds`. When every request waiting for a build has gone (`signal`), the build is dropped: taken
 * from the queue, or its worker ended.
 */
export async function boardPackFor(
  deps: PackDeps,
  request: { data: PackData; etag: string; userId: number; companyId: number; signal: AbortSignal },
): Promise<Uint8Array> {
  // Its client left while the pack's data was read: nothing to build.
  if (request.signal.aborted) throw new PdfJobAbandoned();
  let shared = underWay.get(request.etag);
  // A build every caller has left is being dropped: a new request starts its own.
  if (shared?.drop.signal.aborted) shared = undefined;
  if (!shared) {
    const { userId, companyId } = request;
    const failedUntil = failedLately.get(request.etag);
    const now = deps.clock.now().getTime();
    if (failedUntil !== undefined && failedUntil > now) throw unbuilt(Math.ceil((failedUntil - now) / 1000));
    if ((buildsOf.get(userId) ?? 0) > 0) throw busy();
    if (!mayStart(companyId)) {
      if (waiting.length >= packLimits.queuedBuilds) throw busy();
      if (waiting.filter((entry) => entry.companyId === companyId).length >= packLimits.queuedBuildsPerCompany) throw busy();
    }
    buildsOf.set(userId, (buildsOf.get(userId) ?? 0) + 1);
    const drop = new AbortController();
    const entry: Shared = { callers: 0, drop, result: Promise.resolve(new Uint8Array()) };
    entry.result = (async () => {
      try {
        await turn(companyId, drop.signal);
        try {
          const built = await buildInWorker(deps, request.data, drop.signal).catch((error: unknown) => {
            if (!(error instanceof HttpError && error.status === 503)) throw error;
            remember(deps, request.etag);
            throw unbuilt(packLimits.failureMemorySeconds);
          });
          const { pack } = built;
          if (!built.settled) {
            // A paper left out after a time cap or a crash may have been the machine's doing, not the paper's: built
            // again next time rather than kept.
            deps.logger.info(
              { meetingId: request.data.meeting.id },
              "board pack: not kept, a paper was left out after a time cap or crash",
            );
          } else if (pack.byteLength > packLimits.maxStoredPackBytes) {
            deps.logger.info({ meetingId: request.data.meeting.id, byteSize: pack.byteLength }, "board pack: too large to keep");
          } else {
            await storePack(deps, request.data.meeting.id, request.etag, pack).catch((error: unknown) =>
              // Served all the same; only built again next time.
              deps.logger.warn({ err: error, meetingId: request.data.meeting.id }, "board pack: could not be stored"),
            );
          }
          return pack;
        } finally {
          building -= 1;
          buildingFor.delete(companyId);
          startWaiting();
        }
      } finally {
        if (underWay.get(request.etag) === entry) underWay.delete(request.etag);
        const left = (buildsOf.get(userId) ?? 1) - 1;
        if (left > 0) buildsOf.set(userId, left);
        else buildsOf.delete(userId);
      }
    })();
    shared = entry;
    underWay.set(request.etag, entry);
  }
  const entry = shared;
  entry.callers += 1;
  const leave = () => {
    entry.callers -= 1;
    if (entry.callers === 0) entry.drop.abort();
  };
  request.signal.addEventListener("abort", leave, { once: true });
  try {
    return await entry.result;
  } catch (error) {
    // Dropped because its callers left just as this one came: this one may try again at once.
    if (error instanceof PdfJobAbandoned && !request.signal.aborted) throw busy();
    throw error;
  } finally {
    request.signal.removeEventListener("abort", leave);
  }
}

/** Whether a build for the company could start now: a place is free and the company has no build under way. */
function mayStart(companyId: number): boolean {
  return building < packLimits.concurrentBuilds && !buildingFor.has(companyId);
}

/** Waits for a place among the builds under way, and for the company's build under way (if any) to end. */
async function turn(companyId: number, signal: AbortSignal): Promise<void> {
  if (mayStart(companyId)) {
    building += 1;
    buildingFor.add(companyId);
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const entry = {
      companyId,
      start: () => {
        signal.removeEventListener("abort", leave);
        resolve();
      },
    };
    const leave = () => {
      const index = waiting.indexOf(entry);
      if (index >= 0) waiting.splice(index, 1);
      reject(new PdfJobAbandoned());
    };
    waiting.push(entry);
    signal.addEventListener("abort", leave, { once: true });
  });
}

/** Starts the waiting builds that may now start, oldest first, skipping those whose company has one under way. */
function startWaiting(): void {
  for (let index = 0; index < waiting.length && building < packLimits.concurrentBuilds;) {
    const entry = waiting[index]!;
    if (buildingFor.has(entry.companyId)) {
      index += 1;
      continue;
    }
    waiting.splice(index, 1);
    building += 1;
    buildingFor.add(entry.companyId);
    entry.start();
  }
}

/** Answers the pack's next requests 503 at once for a while, rather than each spending a build on it. */
function remember(deps: PackDeps, etag: string): void {
  const now = deps.clock.now().getTime();
  for (const [tag, until] of failedLately) if (until <= now) failedLately.delete(tag);
  failedLately.set(etag, now + packLimits.failureMemorySeconds * 1000);
}
