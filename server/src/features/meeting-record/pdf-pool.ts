// PDF work (the board pack, the minutes) runs in worker threads, never on the thread that answers requests: a
// paper that takes gigabytes or minutes to read costs its own worker, which is ended and replaced, and nothing else.
import { Worker } from "node:worker_threads";
import type { MinutesPdfInput } from "./minutes-pdf";
import { PdfJobAbandoned, PdfJobFailed, type FromWorker, type PdfJob, type ToWorker } from "./pdf-jobs";

/**
 * What one PDF job may take. Memory: the worker's V8 heap (`resourceLimits`), young generation bounded too so the
 * old one's cap is reached rather than the process's. Time: the job's own, from its start in its worker, not counting
 * the time it waits for the main thread to read it a paper from storage. Changed only by
 * tests; a worker made under other limits is replaced before its next job.
 */
export const pdfWorkLimits = {
  maxOldGenerationSizeMb: 512,
  maxYoungGenerationSizeMb: 32,
  timeoutMs: 60_000,
  /** An idle worker is ended after this long (and made again when next needed). */
  idleMs: 30_000,
  /**
   * Workers kept at most (made when first needed): jobs beyond them wait in order. One more than the board pack's
   * builds at once, so approved minutes never wait behind two long packs.
   */
  workers: 3,
};

/** Jobs started in workers since the process began: tests prove with it that a stored pack is not built again. */
export const pdfJobCounts = { started: 0 };

export interface RunOptions {
  signal?: AbortSignal;
  /** Anything the worker asks during the job (a paper's bytes); `reply` posts back to that worker. */
  onMessage?: (
    message: Exclude<FromWorker, { type: "ready" | "done" | "failed" }>,
    reply: (message: ToWorker, transfer?: ArrayBuffer[]) => void,
  ) => void;
}

interface Slot {
  worker: Worker;
  limitsKey: string;
  ready: boolean;
  /** The job it runs, if any. */
  running: Running | null;
}

interface Running {
  job: PdfJob;
  options: RunOptions;
  resolve: (bytes: Uint8Array) => void;
  reject: (error: Error) => void;
}

const slots: Slot[] = [];
const queue: Running[] = [];

const limitsKey = () => `${pdfWorkLimits.maxOldGenerationSizeMb}/${pdfWorkLimits.maxYoungGenerationSizeMb}`;

/**
 * Where the worker's code is. Bundled (dist/server), `pdf-worker.js` sits beside the server's bundle. From the
 * TypeScript sources (tsx, vitest), `pdf.worker.ts` beside this file, loaded through tsx's loader, registered in
 * the worker first (Node 20 does not hand `--import` loaders to workers).
 */
function workerSource(): { code: string | URL; eval: boolean } {
  if (!import.meta.url.endsWith(".ts")) return { code: new URL("./pdf-worker.js", import.meta.url), eval: false };
  const entry = new URL("./pdf.worker.ts", import.meta.url).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  return {
    code: `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`,
    eval: true,
  };
}

function spawn(): Slot {
  const source = workerSource();
  const worker = new Worker(source.code, {
    eval: source.eval,
    resourceLimits: {
      maxOldGenerationSizeMb: pdfWorkLimits.maxOldGenerationSizeMb,
      maxYoungGenerationSizeMb: pdfWorkLimits.maxYoungGenerationSizeMb,
    },
  });
  const slot: Slot = { worker, limitsKey: limitsKey(), ready: false, running: null };
  let lastError: Error | null = null;
  worker.on("message", (message: FromWorker) => {
    if (message.type === "ready") {
      slot.ready = true;
      idle(slot);
      dispatch();
      return;
    }
    const running = slot.running;
    if (!running) return;
    if (message.type === "done") {
      finish(slot, () => running.resolve(new Uint8Array(message.bytes)));
    } else if (message.type === "failed") {
      finish(slot, () => running.reject(new Error(message.message)));
    } else {
      // The worker waits for the main thread to read a paper from storage: that wait is not the job's time.
      const asking = message.type === "paper";
      if (asking) pauseClock(slot, running);
      running.options.onMessage?.(message, (reply, transfer) => {
        // A reply to a job since abandoned finds the worker gone or on another job: dropped.
        if (slot.running !== running) return;
        if (asking) resumeClock(slot, running);
        // Its time may have run out while it waited.
        if (slot.running !== running) return;
        worker.postMessage(reply, transfer ?? []);
      });
    }
  });
  worker.on("error", (error) => (lastError = error));
  worker.on("exit", () => {
    remove(slot);
    const running = slot.running;
    slot.running = null;
    if (running) {
      release(slot, running);
      const code = (lastError as NodeJS.ErrnoException | null)?.code;
      running.reject(new PdfJobFailed(code === "ERR_WORKER_OUT_OF_MEMORY" ? "memory" : "crash"));
    } else if (!slot.ready && !ended.has(slot)) {
      // It could not even load: the job it was made for fails, rather than workers being made again and again.
      queue.shift()?.reject(new PdfJobFailed("crash"));
    }
    dispatch();
  });
  // Made for a waiting job: it keeps the process alive until that job is done (finish() lets an idle one go).
  slots.push(slot);
  return slot;
}

function remove(slot: Slot): void {
  const index = slots.indexOf(slot);
  if (index >= 0) slots.splice(index, 1);
}

/** Workers ended on purpose (their exit is no failure to load). */
const ended = new WeakSet<Slot>();

/** Ends a slot's worker at once; its job (if any) is settled by `settle` instead of the exit handler. */
function end(slot: Slot, settle?: () => void): void {
  ended.add(slot);
  const running = slot.running;
  if (running) release(slot, running);
  slot.running = null;
  remove(slot);
  void slot.worker.terminate();
  if (running && settle) settle();
  dispatch();
}

const timers = new WeakMap<Slot, NodeJS.Timeout>();
const abortListeners = new WeakMap<Running, () => void>();

/**
 * A running job's time cap: the time it has left, and since when it has been spending it (null while the worker
 * waits for the main thread, when its time stands still).
 */
interface JobClock {
  leftMs: number;
  since: number | null;
  /** Answers the main thread still owes it. */
  owed: number;
}
const clocks = new WeakMap<Running, JobClock>();

/**
 * Starts (or starts again) a job's time cap on its worker, with the time it has left. A job with none left fails at
 * once (its worker ended): false then, and nothing more may be posted to that worker.
 */
function runClock(slot: Slot, running: Running, clock: JobClock): boolean {
  const timeUp = () => end(slot, () => running.reject(new PdfJobFailed("time")));
  if (clock.leftMs <= 0) {
    timeUp();
    return false;
  }
  clock.since = performance.now();
  timers.set(slot, setTimeout(timeUp, clock.leftMs));
  return true;
}

function pauseClock(slot: Slot, running: Running): void {
  const clock = clocks.get(running);
  if (!clock) return;
  clock.owed += 1;
  if (clock.since === null) return;
  clearTimeout(timers.get(slot));
  clock.leftMs = Math.max(0, clock.leftMs - (performance.now() - clock.since));
  clock.since = null;
}

function resumeClock(slot: Slot, running: Running): void {
  const clock = clocks.get(running);
  if (!clock || clock.owed === 0) return;
  clock.owed -= 1;
  if (clock.owed === 0 && clock.since === null) runClock(slot, running, clock);
}

/** A job leaves its worker: its time cap and its caller's abort stop watching it. */
function release(slot: Slot, running: Running): void {
  clearTimeout(timers.get(slot));
  const onAbort = abortListeners.get(running);
  if (onAbort) running.options.signal?.removeEventListener("abort", onAbort);
}

function finish(slot: Slot, settle: () => void): void {
  const running = slot.running;
  if (running) release(slot, running);
  slot.running = null;
  idle(slot);
  settle();
  dispatch();
}

/**
 * A worker without a job: it no longer keeps the process alive, and it is ended after `idleMs` without one, so the
 * heap a large pack left behind is given back.
 */
function idle(slot: Slot): void {
  slot.worker.unref();
  const timer = setTimeout(() => {
    if (slot.running === null && slots.includes(slot)) end(slot);
  }, pdfWorkLimits.idleMs);
  timer.unref();
  timers.set(slot, timer);
}

function start(slot: Slot, running: Running): void {
  clearTimeout(timers.get(slot));
  slot.running = running;
  slot.worker.ref();
  pdfJobCounts.started += 1;
  const clock: JobClock = { leftMs: pdfWorkLimits.timeoutMs, since: null, owed: 0 };
  clocks.set(running, clock);
  if (!runClock(slot, running, clock)) return;
  slot.worker.postMessage({ type: "job", job: running.job } satisfies ToWorker);
}

/** Starts waiting jobs on idle workers (made, or remade under the current limits, as needed). */
function dispatch(): void {
  while (queue.length > 0) {
    const stale = slots.find((candidate) => candidate.limitsKey !== limitsKey() && candidate.running === null);
    if (stale) {
      // Made under other limits: replaced (end() dispatches again).
      end(stale);
      return;
    }
    const slot = slots.find((candidate) => candidate.ready && candidate.running === null);
    if (!slot) {
      // A worker still loading takes the next job once ready.
      const loading = slots.filter((candidate) => !candidate.ready).length;
      for (let more = queue.length - loading; more > 0 && slots.length < pdfWorkLimits.workers; more -= 1) spawn();
      return;
    }
    start(slot, queue.shift()!);
  }
}

/**
 * Runs a job in a worker: answers the PDF's bytes. Rejects with PdfJobFailed when the worker passed its memory or
 * time cap (it is replaced), with PdfJobAbandoned when `signal` aborts first, or with the job's own error.
 */
export function runPdfJob(job: PdfJob, options: RunOptions = {}): Promise<Uint8Array> {
  return new Promise<Uint8Array>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new PdfJobAbandoned());
      return;
    }
    const running: Running = { job, options, resolve, reject };
    const onAbort = () => {
      const waiting = queue.indexOf(running);
      if (waiting >= 0) {
        queue.splice(waiting, 1);
        reject(new PdfJobAbandoned());
        return;
      }
      const slot = slots.find((candidate) => candidate.running === running);
      if (slot) end(slot, () => reject(new PdfJobAbandoned()));
    };
    abortListeners.set(running, onAbort);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    queue.push(running);
    dispatch();
  });
}

/** The approved minutes' PDF, made in a worker. */
export function renderMinutesPdf(input: MinutesPdfInput): Promise<Uint8Array> {
  return runPdfJob({ kind: "minutes", input });
}
