// A PDF job, the messages its worker and the main thread exchange while it runs, and how it can fail.
import type { PackData } from "./board-pack.data";
import type { MinutesPdfInput } from "./minutes-pdf";

/** The limits a pack is built under (read on the main thread, where tests change them). */
export interface PackBuildLimits {
  maxMergedPapers: number;
  maxPaperBytes: number;
}

export type PdfJob =
  { kind: "pack"; data: PackData; limits: PackBuildLimits; tooLarge: number[] } | { kind: "minutes"; input: MinutesPdfInput };

/** Messages between the main thread and a worker. */
export type ToWorker =
  | { type: "job"; job: PdfJob }
  /** A paper's bytes (transferred), or why there are none. */
  | { type: "paper"; request: number; bytes: ArrayBuffer | null | "too large"; error?: string };
export type FromWorker =
  /** Loaded: jobs (and their time caps) start only then. */
  | { type: "ready" }
  | { type: "done"; bytes: ArrayBuffer }
  | { type: "failed"; message: string }
  /** Posted before the worker reads a paper: the paper it dies on, if it does, is this one. */
  | { type: "paper"; request: number; paperId: number; room: number }
  | { type: "paperDone"; paperId: number };

/** A job whose worker passed its memory or time cap (or died otherwise): the worker was ended and replaced. */
export class PdfJobFailed extends Error {
  constructor(readonly reason: "memory" | "time" | "crash") {
    super(`The PDF job's worker ${reason === "memory" ? "ran out of memory" : reason === "time" ? "ran out of time" : "stopped"}`);
    this.name = "PdfJobFailed";
  }
}

/** A job abandoned by its caller (its client went away): dropped from the queue, or its worker ended. */
export class PdfJobAbandoned extends Error {
  constructor() {
    super("The PDF job was abandoned");
    this.name = "PdfJobAbandoned";
  }
}

/** An ArrayBuffer holding exactly `bytes`, safe to transfer (a small Buffer may be a slice of a shared pool). */
export function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
