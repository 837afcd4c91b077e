// A text worker (started by text-pool.ts): one job at a time, reading a version's text or comparing two versions'.
import { parentPort } from "node:worker_threads";
import { comparePages, diffLines, linesOf } from "./compare";
import { extractText } from "./extract";
import type { FromTextWorker, TextJob, ToTextWorker } from "./text-jobs";

// pdf.js warns on the console about damaged papers: that would mix with the server's JSON logs.
for (const method of ["log", "info", "warn", "error", "debug"] as const) console[method] = () => undefined;

const port = parentPort!;
const post = (message: FromTextWorker) => port.postMessage(message);

async function run(job: TextJob) {
  if (job.kind === "extract") return extractText(job.textKind, new Uint8Array(job.bytes));
  if (job.mode === "pages") return { pages: comparePages(job.before, job.after) };
  return { lines: diffLines(job.before.flatMap(linesOf), job.after.flatMap(linesOf)) };
}

port.on("message", (message: ToTextWorker) => {
  run(message.job).then(
    (result) => post({ type: "done", result }),
    (error: unknown) => post({ type: "failed", message: error instanceof Error ? error.message : String(error) }),
  );
});

post({ type: "ready" });
