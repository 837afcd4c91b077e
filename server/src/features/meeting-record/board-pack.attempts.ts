// One board pack built in a PDF worker: papers handed over as it asks, and built again without a paper that
// passed the worker's memory or time cap.
import { readPaperBytes, type PackData } from "./board-pack.data";
import { packLimits, unbuilt, type PackDeps } from "./board-pack.limits";
import { ownBuffer, PdfJobAbandoned, PdfJobFailed } from "./pdf-jobs";
import { runPdfJob } from "./pdf-pool";

/**
 * Builds the pack in a worker, handing it each paper's bytes as it asks. When the worker passes its memory or time
 * cap while a paper is being merged, the pack is built again with that paper listed as too large to include, at
 * most `packLimits.retries` times; a build that fails otherwise is a 503. `settled` is false when a paper was left
 * out after a cap other than memory's: a slow machine may have been to blame, so that pack is not kept.
 */
export async function buildInWorker(deps: PackDeps, data: PackData, signal: AbortSignal): Promise<{ pack: Uint8Array; settled: boolean }> {
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
