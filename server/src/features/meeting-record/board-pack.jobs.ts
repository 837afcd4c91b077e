// The board pack from the request's side: built in a PDF worker, in turn, kept once built, and served again.
import { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import type { ServiceDeps } from "../../app-deps";
import { boardPacks } from "../../db/schema";
import { HttpError } from "../../http/errors";
import { claimFile, currentFileTarget, discardFile, readFile, releaseFile, writeFile } from "../documents/documents.service";
import { readPaperBytes, type PackData } from "./board-pack.data";
import { ownBuffer, PdfJobAbandoned, PdfJobFailed, runPdfJob } from "./pdf-pool";

type PackDeps = ServiceDeps<"db" | "clock" | "appSecret" | "logger" | "outbound">;

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
const busy = () => new HttpError(429, packBusyMessage, { "Retry-After": String(packLimits.retryAfterSeconds) });
const unbuilt = (retryAfterSeconds = packLimits.retryAfterSeconds) =>
  new HttpError(503, "The board pack could not be built. Try again later.", { "Retry-After": String(retryAfterSeconds) });

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

/** A stored pack of the meeting under this tag, or null. */
export async function storedPack(
  deps: PackDeps,
  meetingId: number,
  etag: string,
): Promise<{ byteSize: number; open: () => Promise<Readable> } | null> {
  const [row] = await deps.db
    .select()
    .from(boardPacks)
    .where(and(eq(boardPacks.meetingId, meetingId), eq(boardPacks.etag, etag)));
  return row ? { byteSize: row.byteSize, open: () => readFile(deps, row) } : null;
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

/**
 * Builds the pack in a worker, handing it each paper's bytes as it asks. When the worker passes its memory or time
 * cap while a paper is being merged, the pack is built again with that paper listed as too large to include, at
 * most `packLimits.retries` times; a build that fails otherwise is a 503. `settled` is false when a paper was left
 * out after a cap other than memory's: a slow machine may have been to blame, so that pack is not kept.
 */
async function buildInWorker(deps: PackDeps, data: PackData, signal: AbortSignal): Promise<{ pack: Uint8Array; settled: boolean }> {
  const tooLarge = new Set<number>();
  // False once a paper was left out after a cap other than memory's (the time cap, a crash).
  let settled = true;
  for (let attempt = 0; ; attempt += 1) {
    const progress: { reading: number | null; readFailed: boolean } = { reading: null, readFailed: false };
    /** A paper refused by the PDF bounds as it was read. */
    let refused: number | null = null;
    try {
      const pack = await runPdfJob(
        {
          kind: "pack",
          data,
          limits: { maxMergedPapers: packLimits.maxMergedPapers, maxPaperBytes: packLimits.maxPaperBytes },
          tooLarge: [...tooLarge],
        },
        {
          signal,
          onMessage: (message, reply) => {
            if (message.type === "paperDone") {
              progress.reading = null;
              return;
            }
            progress.reading = message.paperId;
            let timer: NodeJS.Timeout | undefined;
            const overdue = new Promise<never>((_, reject) => {
              timer = setTimeout(() => reject(new Error("a paper's read took too long")), packLimits.paperReadMs);
            });
            Promise.race([readPaperBytes(deps, message.paperId, message.room), overdue])
              .finally(() => clearTimeout(timer))
              .then(
                (bytes) => {
                  // Past the bounds a PDF is held to: this try ends, and the next lists the paper as too large.
                  if (bytes === "refused") {
                    refused = message.paperId;
                    return reply({ type: "paper", request: message.request, bytes: null, error: "a paper passed the PDF bounds" });
                  }
                  if (!Buffer.isBuffer(bytes)) return reply({ type: "paper", request: message.request, bytes });
                  const buffer = ownBuffer(bytes);
                  reply({ type: "paper", request: message.request, bytes: buffer }, [buffer]);
                },
                () => {
                  progress.readFailed = true;
                  reply({ type: "paper", request: message.request, bytes: null, error: "a paper could not be read" });
                },
              );
          },
        },
      );
      return { pack, settled };
    } catch (error) {
      if (refused !== null && !(error instanceof PdfJobAbandoned)) {
        deps.logger.warn({ meetingId: data.meeting.id, paperId: refused }, "board pack: a paper passed the PDF bounds");
        tooLarge.add(refused);
        continue;
      }
      // Storage that failed to give a paper (the database or object storage unreachable): try again later.
      if (progress.readFailed && !(error instanceof PdfJobAbandoned)) throw unbuilt();
      if (!(error instanceof PdfJobFailed)) throw error;
      const paperId = progress.reading;
      deps.logger.warn(
        { meetingId: data.meeting.id, paperId, reason: error.reason, attempt },
        "board pack: a build passed its worker's cap",
      );
      if (paperId === null || attempt >= packLimits.retries) throw unbuilt();
      if (error.reason !== "memory") settled = false;
      tooLarge.add(paperId);
    }
  }
}

/**
 * Keeps a built pack under its tag in the file store, in place of the meeting's earlier pack (whose bytes go in
 * the same transaction, or to the sweep when in object storage). The bytes are written first, on the sweep until
 * the row that owns them is committed.
 */
async function storePack(deps: PackDeps, meetingId: number, etag: string, pack: Uint8Array): Promise<void> {
  const target = await currentFileTarget(deps);
  const bytes = Buffer.from(pack.buffer, pack.byteOffset, pack.byteLength);
  const place = await writeFile(deps, target, Readable.from([bytes]), "application/pdf");
  try {
    await deps.db.transaction(async (tx) => {
      const [earlier] = await tx.select().from(boardPacks).where(eq(boardPacks.meetingId, meetingId)).for("update");
      const row = { etag, ...place, byteSize: pack.byteLength, createdAt: deps.clock.now() };
      await tx
        .insert(boardPacks)
        .values({ meetingId, ...row })
        .onConflictDoUpdate({ target: boardPacks.meetingId, set: row });
      await claimFile(tx, place);
      if (earlier) await releaseFile(tx, deps.clock.now(), earlier);
    });
  } catch (error) {
    await discardFile(deps, place).catch(() => undefined);
    throw error;
  }
}
