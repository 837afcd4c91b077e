// A PDF worker (started by pdf-pool.ts): one job at a time, its result transferred back. It has no database: a
// paper's bytes are asked of the main thread, which reads them from storage.
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { buildPack, type PaperSource } from "./board-pack.build";
import { buildMinutesPdf } from "./minutes-pdf";
import { ownBuffer, type FromWorker, type PdfJob, type ToWorker } from "./pdf-jobs";

// pdf-lib warns on the console about damaged papers: that would mix with the server's JSON logs, and the pack says
// what became of each paper anyway.
for (const method of ["log", "info", "warn", "error", "debug"] as const) console[method] = () => undefined;

// A pack gives way to the thread that answers requests (and to the database) when the cores are busy: on Linux a
// thread has a nice value of its own, set through its thread id. Elsewhere the worker keeps the process's.
try {
  const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
  if (Number.isSafeInteger(threadId) && threadId > 0) setPriority(threadId, 19);
} catch {
  // No /proc (not Linux): the same priority as the process.
}

const port = parentPort!;
const post = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/** Papers asked of the main thread, by request number. */
const asked = new Map<number, { resolve: (bytes: Buffer | null | "too large") => void; reject: (error: Error) => void }>();
let requests = 0;

const source: PaperSource = {
  read(paper, room) {
    const request = (requests += 1);
    return new Promise((resolve, reject) => {
      asked.set(request, { resolve, reject });
      post({ type: "paper", request, paperId: paper.id, room });
    });
  },
  done(paper) {
    post({ type: "paperDone", paperId: paper.id });
  },
};

function run(job: PdfJob): Promise<Uint8Array> {
  if (job.kind === "minutes") return buildMinutesPdf(job.input);
  return buildPack(job.data, job.limits, new Set(job.tooLarge), source);
}

port.on("message", (message: ToWorker) => {
  if (message.type === "paper") {
    const waiting = asked.get(message.request);
    asked.delete(message.request);
    if (!waiting) return;
    if (message.error !== undefined) waiting.reject(new Error(message.error));
    else waiting.resolve(message.bytes instanceof ArrayBuffer ? Buffer.from(message.bytes) : message.bytes);
    return;
  }
  run(message.job).then(
    (bytes) => {
      const buffer = ownBuffer(bytes);
      post({ type: "done", bytes: buffer }, [buffer]);
    },
    (error: unknown) => post({ type: "failed", message: error instanceof Error ? error.message : String(error) }),
  );
});

post({ type: "ready" });
