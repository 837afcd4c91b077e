// Reading a paper's text and comparing versions run in worker threads, never on the thread that answers requests: a
// paper that takes too much memory or time costs its own worker, which is ended, and nothing else. (The meeting
// record's PDF pool is that feature's own; documents may not reach into it.)
import { Worker } from "node:worker_threads";
import { TextJobFailed, type FromTextWorker, type TextJob, type TextJobResult, type ToTextWorker } from "./text-jobs";

/** What one text job may take: its worker's heap, and its time. Changed only by tests. */
export const textWorkLimits = {
  maxOldGenerationSizeMb: 256,
  maxYoungGenerationSizeMb: 32,
  timeoutMs: 60_000,
  /** An idle worker is ended after this long (and made again when next needed). */
  idleMs: 30_000,
  /** Workers at once: jobs beyond them wait in order. The text is background work; requests come first. */
  workers: 2,
};

/** Jobs started since the process began: tests prove with it that a stored comparison is not computed again. */
export const textJobCounts = { started: 0 };

interface Waiting {
  job: TextJob;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  running: Waiting | null;
  timer?: NodeJS.Timeout;
  limitsKey: string;
}

const slots: Slot[] = [];
const queue: Waiting[] = [];
const limitsKey = () => `${textWorkLimits.maxOldGenerationSizeMb}/${textWorkLimits.maxYoungGenerationSizeMb}`;

/**
 * Where the worker's code is: bundled, `paper-text-worker.js` beside the server's bundle; from the TypeScript
 * sources (tsx, vitest), `text.worker.ts` loaded through tsx's loader, registered in the worker first.
 */
function workerSource(): { code: string | URL; eval: boolean } {
  if (!import.meta.url.endsWith(".ts")) return { code: new URL("./paper-text-worker.js", import.meta.url), eval: false };
  const entry = new URL("./text.worker.ts", import.meta.url).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  return {
    code: `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`,
    eval: true,
  };
}

function spawn(): void {
  const source = workerSource();
  const worker = new Worker(source.code, {
    eval: source.eval,
    resourceLimits: {
      maxOldGenerationSizeMb: textWorkLimits.maxOldGenerationSizeMb,
      maxYoungGenerationSizeMb: textWorkLimits.maxYoungGenerationSizeMb,
    },
  });
  const slot: Slot = { worker, ready: false, running: null, limitsKey: limitsKey() };
  let lastError: Error | null = null;
  worker.on("message", (message: FromTextWorker) => {
    if (message.type === "ready") {
      slot.ready = true;
      idle(slot);
      dispatch();
      return;
    }
    const running = slot.running;
    if (!running) return;
    clearTimeout(slot.timer);
    slot.running = null;
    idle(slot);
    if (message.type === "done") running.resolve(message.result);
    else running.reject(new Error(message.message));
    dispatch();
  });
  worker.on("error", (error) => (lastError = error));
  worker.on("exit", () => {
    clearTimeout(slot.timer);
    removeSlot(slot);
    const running = slot.running;
    slot.running = null;
    const code = (lastError as NodeJS.ErrnoException | null)?.code;
    if (running) running.reject(new TextJobFailed(code === "ERR_WORKER_OUT_OF_MEMORY" ? "memory" : "crash"));
    // It could not even load: the next job fails, rather than workers being made again and again.
    else if (!slot.ready) queue.shift()?.reject(new TextJobFailed("crash"));
    dispatch();
  });
  slots.push(slot);
}

function removeSlot(slot: Slot): void {
  const index = slots.indexOf(slot);
  if (index >= 0) slots.splice(index, 1);
}

/** A worker without a job keeps the process alive no longer, and is ended after `idleMs` without one. */
function idle(slot: Slot): void {
  slot.worker.unref();
  clearTimeout(slot.timer);
  slot.timer = setTimeout(() => {
    removeSlot(slot);
    void slot.worker.terminate();
  }, textWorkLimits.idleMs);
  slot.timer.unref();
}

function start(slot: Slot, waiting: Waiting): void {
  // A job given no time at all fails before a worker takes it: under a cap of 1 ms a quick job could still finish first.
  if (textWorkLimits.timeoutMs <= 0) return waiting.reject(new TextJobFailed("time"));
  clearTimeout(slot.timer);
  slot.running = waiting;
  slot.worker.ref();
  textJobCounts.started += 1;
  slot.timer = setTimeout(() => {
    // Ended for its time: no job goes to it any more, and its exit does not settle this one again as a crash.
    slot.running = null;
    removeSlot(slot);
    waiting.reject(new TextJobFailed("time"));
    void slot.worker.terminate();
    dispatch();
  }, textWorkLimits.timeoutMs);
  const transfer = waiting.job.kind === "extract" ? [waiting.job.bytes] : [];
  slot.worker.postMessage({ type: "job", job: waiting.job } satisfies ToTextWorker, transfer);
}

function dispatch(): void {
  while (queue.length > 0) {
    const stale = slots.find((slot) => slot.limitsKey !== limitsKey() && slot.ready && slot.running === null);
    if (stale) {
      // Made under other limits: ended, and another made under the current ones.
      removeSlot(stale);
      void stale.worker.terminate();
      continue;
    }
    const free = slots.find((slot) => slot.ready && slot.running === null && slot.limitsKey === limitsKey());
    if (!free) {
      const loading = slots.filter((slot) => !slot.ready).length;
      for (let more = queue.length - loading; more > 0 && slots.length < textWorkLimits.workers; more -= 1) spawn();
      return;
    }
    start(free, queue.shift()!);
  }
}

/** Runs a job in a worker. Rejects with TextJobFailed when the worker passed its memory or time cap, or with the job's error. */
export function runTextJob<Job extends TextJob>(job: Job): Promise<TextJobResult<Job>> {
  return new Promise((resolve, reject) => {
    queue.push({ job, resolve: resolve as (result: unknown) => void, reject });
    dispatch();
  });
}
