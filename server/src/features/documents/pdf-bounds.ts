import { HttpError } from "../../http/errors";
import { type FilterKind, filterOf } from "./pdf-bounds/filter-decoders";
import { type StreamDict, PdfLexer } from "./pdf-bounds/lexer";
import {
  encryptedMessage,
  indirectFilterMessage,
  objectStreamsTooLargeMessage,
  pageTreeUncheckableMessage,
  pdfLimits,
  tooManyPagesMessage,
  uncheckableMessage,
} from "./pdf-bounds/limits";
import { readObjectStream } from "./pdf-bounds/object-stream";
import { PageTree } from "./pdf-bounds/page-tree";
import { countOnly, settled, type Stage, StreamInflation, type StreamPlan } from "./pdf-bounds/stream-inflation";

export {
  encryptedMessage,
  expandsTooFarMessage,
  indirectFilterMessage,
  objectStreamsTooLargeMessage,
  pageTreeUncheckableMessage,
  pdfLimits,
  tooManyPagesMessage,
} from "./pdf-bounds/limits";

/** Streams being decoded at once; an honest file has one at a time (each ends where its data ends). */
const maxOpenStreams = 32;

/**
 * Bounds the work a PDF can cause, checked on its bytes as they arrive: `write` each piece in order, then `end`.
 * Either throws a 400 naming the limit passed. Every stream's data is inflated from where its `stream` keyword
 * ends until zlib itself says the data has ended (or is broken), whatever the file claims its length is, so a
 * reader that trusts the file can never inflate more than is counted here. The inflated bytes are counted as zlib
 * hands them over and then dropped; only object streams' are read (for the pages they hold). `abort` stops
 * everything (an upload that failed for another reason).
 */
export class PdfBoundsCheck {
  private readonly tree: PageTree;
  private readonly lexer: PdfLexer;
  private open: Stage[] = [];
  private readonly inflation: StreamInflation;
  private objectStreamBytes = 0;
  private refusal: HttpError | null = null;
  private counted: number | null = null;

  constructor(private readonly limits: typeof pdfLimits = pdfLimits) {
    this.tree = new PageTree(limits.pages, limits.treeEntries);
    this.lexer = new PdfLexer(this.tree, true);
    this.inflation = new StreamInflation(limits.expandedBytes, {
      refused: () => this.refusal !== null,
      refuse: (error) => this.refuse(error),
    });
  }

  async write(bytes: Buffer): Promise<void> {
    this.throwIfRefused();
    // Streams open before this piece take all of it; one that begins inside it takes what follows its keyword,
    // and is given that before the piece is read on (so an honest stream has ended before the next begins).
    const feeding = Promise.all(this.open.map((stage) => settled(stage.write(bytes))));
    try {
      for (let at = this.lexer.write(bytes); at >= 0 && !this.refusal; at = this.lexer.write(bytes, at)) {
        this.checkPages(false);
        await this.openStream(this.lexer.streamDict, bytes.subarray(at));
      }
      this.checkPages(false);
    } finally {
      await feeding;
    }
    this.open = this.open.filter((stage) => !stage.done);
    this.throwIfRefused();
  }

  async end(): Promise<void> {
    this.throwIfRefused();
    this.lexer.end();
    await Promise.all(this.open.map((stage) => settled(stage.end())));
    this.open = [];
    this.throwIfRefused();
    this.checkPages(true);
  }

  /**
   * Once `end` has passed: the pages a reader finds walking the page tree (the file's page count), or null when the
   * tree shows none.
   */
  get pages(): number | null {
    return this.counted;
  }

  abort(): void {
    this.inflation.abort();
    this.open = [];
  }

  private async openStream(dict: StreamDict | null, rest: Buffer): Promise<void> {
    // A reader looks up filters named by reference; what it finds cannot be known here (it may come later).
    if (dict?.indirectFilter) {
      this.refuse(new HttpError(400, indirectFilterMessage));
      return;
    }
    if (dict?.objectStream) {
      this.tree.objectStreams = true;
      // Its data read raw, with nothing to say where it ends but a length that may lie.
      if (dict.filters.length === 0) {
        this.refuse(new HttpError(400, pageTreeUncheckableMessage));
        return;
      }
    }
    const plan = this.plan(dict);
    if (!plan) return;
    if (plan.chain.length === 1 && plan.chain[0] === "flate" && this.inflation.inflatedAtOnce(rest, plan.sink)) return;
    const stage = this.inflation.pipeline(plan);
    this.open = this.open.filter((open) => !open.done);
    if (this.open.length >= maxOpenStreams) {
      // A stream that has just ended may not have said so yet.
      await new Promise((resolve) => setImmediate(resolve));
      this.open = this.open.filter((open) => !open.done);
    }
    if (this.open.length >= maxOpenStreams) {
      this.refuse(new HttpError(400, uncheckableMessage));
      return;
    }
    this.open.push(stage);
    if (rest.length > 0) await settled(stage.write(rest));
  }

  /**
   * How a stream's data is decoded, from its filters. Without a dictionary, or without filters, it is tried as
   * Flate all the same. A filter that is not known ends the decoding there; null when nothing left expands (its
   * bytes were read raw, which is all there is to it), or, for an object stream, when nothing is left to decode.
   */
  private plan(dict: StreamDict | null): StreamPlan | null {
    const filters = dict && dict.filters.length > 0 ? dict.filters : ["FlateDecode"];
    const known = filters.map(filterOf);
    const stop = known.indexOf(null);
    const chain = (stop < 0 ? known : known.slice(0, stop)) as FilterKind[];
    const objectStream = dict?.objectStream === true;
    // An object stream is read for its objects, whatever its filters; others only for what they expand to.
    if (objectStream ? chain.length === 0 : !chain.some((kind) => kind === "flate" || kind === "runLength" || kind === "lzw")) return null;
    let sink = countOnly;
    if (objectStream) {
      if (dict.layout === "indirect") {
        this.refuse(new HttpError(400, pageTreeUncheckableMessage));
        return null;
      }
      const layout = dict.layout;
      const pieces: Buffer[] = [];
      sink = {
        write: (bytes) => {
          this.objectStreamBytes += bytes.length;
          if (this.objectStreamBytes > this.limits.objectStreamBytes) {
            this.refuse(new HttpError(400, objectStreamsTooLargeMessage(this.limits.objectStreamBytes)));
            return;
          }
          pieces.push(bytes);
        },
        // Read whole (its header says where each object begins), within the bound on object streams' bytes.
        end: () => {
          if (this.refusal) return;
          readObjectStream(Buffer.concat(pieces), layout, this.tree);
          pieces.length = 0;
          this.notePages(false);
        },
      };
    }
    return { chain, sink, objectStream };
  }
  /**
   * Pages by every count a reader might go by: page objects (each object number once), a page tree's stated
   * count, and, once the whole file is read, the pages under each node of the page tree.
   */
  private checkPages(atEnd: boolean): void {
    this.notePages(atEnd);
    this.throwIfRefused();
  }

  private notePages(atEnd: boolean): void {
    const { tree } = this;
    const limit = this.limits.pages;
    // Pages may be packed in its object streams, unread here: a reader decrypts them with the empty password.
    if (tree.encrypted && tree.objectStreams) this.refuse(new HttpError(400, encryptedMessage));
    if (tree.overflow) this.refuse(new HttpError(400, pageTreeUncheckableMessage));
    let pages = Math.max(tree.pages.size + tree.unnumberedPages, tree.largestCount);
    if (atEnd && pages <= limit) {
      pages = tree.largestTree();
      this.counted = pages > 0 && pages <= limit ? pages : null;
    }
    if (pages > limit) this.refuse(new HttpError(400, tooManyPagesMessage(limit)));
  }

  private refuse(error: HttpError): void {
    if (this.refusal) return;
    this.refusal = error;
    this.abort();
  }

  private throwIfRefused(): void {
    if (this.refusal) throw this.refusal;
  }
}
