import { createInflate, inflateSync, type Inflate } from "node:zlib";
import { HttpError } from "../../../http/errors";
import {
  Ascii85Decoder,
  AsciiHexDecoder,
  type FilterKind,
  LzwDecoder,
  nothing,
  RunLengthDecoder,
  type SyncDecoder,
} from "./filter-decoders";
import { expandsTooFarMessage } from "./limits";
import { charClass, WHITE } from "./syntax";

/** How much inflated output zlib hands over at a time (small enough to stop near the limit, big enough to be quick). */
const inflateChunkBytes = 1024 * 1024;
/** A Flate stream inflated at once (on this thread) when it comes to at most this much. */
const atOnceBytes = 1024 * 1024;
/** Output that attempts to inflate at once may waste, all together, before every stream goes the long way. */
const atOnceWasteBytes = 32 * 1024 * 1024;
/** Input handed at once to a decoder that runs on this thread (LZW's 4 KiB may expand some 10 MiB). */
const syncSliceBytes = 4 * 1024;

/** What every reader checks first: deflate, a window of at most 32 KiB, the check bits right, no preset dictionary. */
function isZlibHeader(bytes: Buffer): boolean {
  const method = bytes[0]!;
  const flags = bytes[1]!;
  return (method & 0x0f) === 8 && method >> 4 <= 7 && ((method << 8) | flags) % 31 === 0 && (flags & 0x20) === 0;
}

/** A stage's failure is only ever a refusal, which is recorded where it happens and thrown by the caller. */
export function settled(work: Promise<void>): Promise<void> {
  return work.catch(() => undefined);
}

/** One step of a stream's decoding: takes bytes, passes its output on; done once its data has ended (or failed). */
export interface Stage {
  write(bytes: Buffer): Promise<void>;
  end(): Promise<void>;
  readonly done: boolean;
}

/** Where a stream's decoded bytes go: an object stream's are read for pages once it has ended; others only counted. */
export interface Sink {
  write(bytes: Buffer): void;
  end(): void;
}
export const countOnly: Sink = { write: () => undefined, end: () => undefined };

/** How a stream's data is decoded: its filters in order, where the output goes, and whether it is an object stream. */
export interface StreamPlan {
  chain: FilterKind[];
  sink: Sink;
  objectStream: boolean;
}

/** The check a stream's stages answer to: once it has refused the file, every stage stops. */
export interface Refusals {
  refused(): boolean;
  refuse(error: HttpError): void;
}

/**
 * Decodes streams' data as it arrives, counting what the expanding filters (Flate, LZW, run-length) make of it
 * against one bound for the whole file, and dropping it unless a sink reads it.
 */
export class StreamInflation {
  private expanded = 0;
  /** What failed attempts to inflate a stream at once may have cost, all together. */
  private atOnceWaste = 0;
  private readonly inflaters = new Set<Inflate>();

  constructor(
    private readonly expandedBytes: number,
    private readonly check: Refusals,
  ) {}

  /** Stops every stream being inflated. */
  abort(): void {
    for (const inflater of this.inflaters) inflater.destroy();
    this.inflaters.clear();
  }

  /** The stages for a plan: each passes its output to the next, the last to the sink. */
  pipeline({ chain, sink, objectStream }: StreamPlan): Stage {
    let first: Stage | null = null;
    for (let index = chain.length - 1; index >= 0; index -= 1) {
      first = this.stage(chain[index]!, first ?? sink, index === chain.length - 1 && !objectStream);
    }
    return first!;
  }

  /**
   * A Flate stream whose data ends within the piece it begins in (most of them: content streams, fonts, object
   * streams) is inflated at once, here, when it comes to little; a stream of zlib data's own thread costs more to
   * set up than such a stream costs to inflate. Answers false when the stream must go the long way: its data goes
   * on past this piece, it comes to more, or it is broken (the long way counts what comes out before the break).
   * Attempts that fail cost this thread, so they are bounded all together.
   */
  inflatedAtOnce(rest: Buffer, sink: Sink): boolean {
    let first = 0;
    while (first < rest.length && charClass[rest[first]!] === WHITE) first += 1;
    const data = rest.subarray(first);
    if (data.length < 2) return false;
    // Not a zlib header: nothing comes out of it, for any reader.
    if (!isZlibHeader(data)) return true;
    if (this.atOnceWaste >= atOnceWasteBytes) return false;
    let out: Buffer;
    try {
      out = inflateSync(data, { maxOutputLength: atOnceBytes });
    } catch {
      this.atOnceWaste += atOnceBytes;
      return false;
    }
    this.count(out.length);
    if (!this.check.refused()) {
      sink.write(out);
      sink.end();
    }
    return true;
  }

  private stage(kind: FilterKind, next: Stage | Sink, last: boolean): Stage {
    const pass = (bytes: Buffer): Promise<void> | void => next.write(bytes);
    const finish = async () => {
      await next.end();
    };
    if (kind === "flate") return this.flateStage(pass, finish);
    // The last step of a stream that is not an object stream only needs counting: its bytes go nowhere.
    const emit = !last;
    const decoder: SyncDecoder =
      kind === "runLength"
        ? new RunLengthDecoder(emit)
        : kind === "lzw"
          ? new LzwDecoder(emit)
          : kind === "ascii85"
            ? new Ascii85Decoder()
            : new AsciiHexDecoder();
    const expands = kind === "runLength" || kind === "lzw";
    // Once its data has ended, the steps after it are ended too, so all they make of it is counted.
    let finished: Promise<void> | null = null;
    const finishOnce = () => (finished ??= finish());
    let ended = false;
    return {
      get done() {
        return ended;
      },
      write: async (bytes) => {
        // A few KiB at a time: what one piece expands to is bounded by what is left of the budget.
        for (let at = 0; at < bytes.length && !decoder.done && !this.check.refused(); at += syncSliceBytes) {
          const { out, produced } = decoder.write(bytes.subarray(at, at + syncSliceBytes), this.expandedBytes - this.expanded + 1);
          if (expands) this.count(produced);
          if (out.length > 0 && !this.check.refused()) await pass(out);
        }
        if (decoder.done && !this.check.refused()) {
          await finishOnce();
          ended = true;
        }
      },
      end: async () => {
        await finishOnce();
        ended = true;
      },
    };
  }

  /**
   * zlib on its own thread: each piece written is inflated before `write` resolves, and its output (handed over a
   * bounded buffer at a time) is counted, then passed on. Leading white space is skipped (readers differ on how a
   * stream's line ends), and data that does not start with a zlib header is dropped at once. A broken or finished
   * stream is done: what follows is not its data. zlib drops the output of the step that failed, so a break counts
   * as a whole buffer more (a reader may have got that far).
   */
  private flateStage(pass: (bytes: Buffer) => Promise<void> | void, finish: () => Promise<void>): Stage {
    let done = false;
    let head = nothing;
    let inflater: Inflate | null = null;
    let pumped: Promise<void> = Promise.resolve();
    const stop = async () => {
      done = true;
      await settled(finish());
    };
    const start = (first: Buffer) => {
      const zlib = createInflate({ chunkSize: inflateChunkBytes });
      inflater = zlib;
      this.inflaters.add(zlib);
      pumped = (async () => {
        try {
          for await (const out of zlib as AsyncIterable<Buffer>) {
            this.count(out.length);
            if (this.check.refused()) break;
            await pass(out);
          }
        } catch {
          if (!this.check.refused()) this.count(inflateChunkBytes);
        } finally {
          this.inflaters.delete(zlib);
          zlib.destroy();
        }
        await stop();
      })();
      return first;
    };
    const write = async (bytes: Buffer): Promise<void> => {
      if (!inflater) {
        let first = 0;
        while (head.length === 0 && first < bytes.length && charClass[bytes[first]!] === WHITE) first += 1;
        head = Buffer.concat([head, bytes.subarray(first)]);
        if (head.length < 2) return;
        if (!isZlibHeader(head)) {
          await stop();
          return;
        }
        bytes = start(head);
        head = nothing;
      }
      const zlib = inflater!;
      await Promise.race([new Promise<void>((resolve) => zlib.write(bytes, () => resolve())), pumped]);
    };
    return {
      get done() {
        return done;
      },
      write: async (bytes) => {
        if (!done) await write(bytes);
      },
      end: async () => {
        if (done) return;
        if (!inflater) {
          await stop();
          return;
        }
        inflater.end();
        await pumped;
      },
    };
  }

  private count(bytes: number): void {
    this.expanded += bytes;
    if (this.expanded > this.expandedBytes) this.check.refuse(new HttpError(400, expandsTooFarMessage(this.expandedBytes)));
  }
}
