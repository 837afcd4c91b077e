// A text job, and the messages its worker and the main thread exchange.
import type { Comparison } from "../../../../../shared/paper-versions";
import type { ExtractedText, TextKind } from "./extract";

export type TextJob =
  /** A version's text, page by page, from its bytes (transferred). */
  | { kind: "extract"; textKind: TextKind; bytes: ArrayBuffer }
  /** Two versions' texts compared: page by page (two PDFs) or line by line. */
  | { kind: "compare"; mode: "pages" | "lines"; before: string[]; after: string[] };

export type TextJobResult<Job extends TextJob> = Job extends { kind: "extract" } ? ExtractedText : Comparison;

export type ToTextWorker = { type: "job"; job: TextJob };
export type FromTextWorker = { type: "ready" } | { type: "done"; result: ExtractedText | Comparison } | { type: "failed"; message: string };

/** A job whose worker passed its memory or time cap (or died otherwise): the worker was ended. */
export class TextJobFailed extends Error {
  constructor(readonly reason: "memory" | "time" | "crash") {
    super(`The text job's worker ${reason === "memory" ? "ran out of memory" : reason === "time" ? "ran out of time" : "stopped"}`);
    this.name = "TextJobFailed";
  }
}
