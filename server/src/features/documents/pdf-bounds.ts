import { createInflate, inflateSync, type Inflate } from "node:zlib";
import { HttpError } from "../../http/errors";

/**
 * What an uploaded PDF may hold. Readers (the board pack among them) inflate a PDF's compressed streams and
 * walk its pages; a small file can claim gigabytes or millions of pages, so both are bounded at upload.
 * Kept as one object so tests can lower them.
 */
export const pdfLimits = {
  /** Pages, however they are counted (page objects, the page tree's own count, references to pages). */
  pages: 2000,
  /** Bytes that the file's Flate, LZW and run-length streams expand to, all together. */
  expandedBytes: 512 * 1024 * 1024,
  /**
   * Bytes of object streams (objects packed together, compressed) read for the pages they hold. Honest files pack
   * a few MiB at most; reading one token at a time on this thread costs about 1 s per 32 MiB of dense tokens.
   */
  objectStreamBytes: 32 * 1024 * 1024,
  /**
   * References (in /Kids and array objects), page-tree nodes and object-stream header entries kept to count pages
   * at the end; honest files need a few thousand. Past it the file is refused as one that cannot be checked.
   */
  treeEntries: 1_000_000,
};

const mebibyte = 1024 * 1024;
export const tooManyPagesMessage = (limit: number) => `This PDF has more than ${limit.toLocaleString("en-US")} pages`;
export const expandsTooFarMessage = (limit: number) =>
  `This PDF's contents expand to more than ${(limit / mebibyte).toLocaleString("en-US")} MiB`;
export const objectStreamsTooLargeMessage = (limit: number) =>
  `This PDF's object streams expand to more than ${(limit / mebibyte).toLocaleString("en-US")} MiB`;
const uncheckableMessage = "This PDF's streams could not be checked";
export const indirectFilterMessage = "This PDF names a stream's filters indirectly, so its streams cannot be checked";
export const encryptedMessage =
  "This PDF is encrypted and packs its objects into compressed streams, so its contents cannot be checked. Upload a copy without a password or restrictions";
export const pageTreeUncheckableMessage = "This PDF's page tree could not be checked";

/** Streams being decoded at once; an honest file has one at a time (each ends where its data ends). */
const maxOpenStreams = 32;
/** How much inflated output zlib hands over at a time (small enough to stop near the limit, big enough to be quick). */
const inflateChunkBytes = 1024 * 1024;
/** A Flate stream inflated at once (on this thread) when it comes to at most this much. */
const atOnceBytes = 1024 * 1024;
/** Output that attempts to inflate at once may waste, all together, before every stream goes the long way. */
const atOnceWasteBytes = 32 * 1024 * 1024;
/** Input handed at once to a decoder that runs on this thread (LZW's 4 KiB may expand some 10 MiB). */
const syncSliceBytes = 4 * 1024;
/** Longest name or word spelled out (longer ones are read through, and match nothing). */
const maxTokenLength = 32;
/**
 * Nesting kept track of; deeper is nonsense, and the structure is forgotten until the next object. Deep enough that
 * a page tree nested directly inside itself past it is more than a reader's own recursion takes.
 */
const maxDepth = 10_000;
/** A kid of a page-tree node that is a dictionary written in place (no object of its own): one page at most. */
const LEAF = -1;

/** Byte classes of PDF's syntax. */
const WHITE = 1;
const DELIM = 2;
const charClass = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) charClass[c] = WHITE;
for (const c of "()<>[]{}/%") charClass[c.charCodeAt(0)] = DELIM;

interface Frame {
  kind: "dict" | "array";
  /** A dictionary's key waiting for its value. */
  key: string | null;
  type?: string;
  count?: number;
  filters: string[];
  hasN?: boolean;
  hasFirst?: boolean;
  /** An object stream's /N and /First, when written plainly. */
  n?: number;
  first?: number;
  /** An array that is a dictionary's /Filter or /Kids. */
  role?: "Filter" | "Kids";
  /** The object numbers this value defines (it is an object's outermost value). */
  numbers?: number[];
  /** A dictionary's last key given a word as its value, and that word (a reference's object number, if `R` follows). */
  valueKey?: string;
  valueWord?: string;
  /** A /Filter that is (or holds) a reference to another object. */
  indirectFilter?: boolean;
  /** An /N or /First that is a reference to another object. */
  indirectLayout?: boolean;
  /** A page-tree node's kids. */
  kids?: Kids;
  /** An array's references (a /Kids array, or an object that is an array), and the word before its last. */
  refs?: number[];
  lastWord?: string;
  wordBefore?: string;
}

/** What the dictionary just before a `stream` keyword says about the stream. */
interface StreamDict {
  filters: string[];
  objectStream: boolean;
  indirectFilter: boolean;
  /** An object stream's objects and where they begin: null when it does not say; "indirect" when by reference. */
  layout: { n: number; first: number } | null | "indirect";
}

/**
 * A page-tree node's kids: references in place (object numbers; LEAF for a dictionary written in place; an
 * unnumbered node's key below LEAF), or the object number of an array that holds them.
 */
type Kids = { refs: number[] } | { array: number };

/**
 * What a file's objects say about its pages, gathered as they are read and counted at the end. Every definition
 * of an object number is kept (a reader takes the last, but which one is last is not sure while reading, and an
 * older revision of an honest file has no more pages than the newer one): a number counts as many pages as the
 * most any of its definitions holds. Page objects count once per object number, however often they are revised.
 */
class PageTree {
  /** Object numbers defined as a page (at most one past the limit is kept: by then the file is refused). */
  readonly pages = new Set<number>();
  /** Page dictionaries with no object number of their own (written in place, or in data that is no object). */
  unnumberedPages = 0;
  /** The largest /Count of any page-tree node. */
  largestCount = 0;
  /** The file names an /Encrypt dictionary. */
  encrypted = false;
  /** The file has an object stream (whose objects, when it is encrypted, cannot be read here). */
  objectStreams = false;
  /** More references and nodes than are kept: the file cannot be checked. */
  overflow = false;
  private readonly nodes = new Map<number, Kids[]>();
  private readonly unnumbered = new Map<number, Kids>();
  private readonly arrays = new Map<number, number[][]>();
  private nextKey = LEAF - 1;
  private entries = 0;

  constructor(
    private readonly limit: number,
    private readonly maxEntries: number,
  ) {}

  /** How many more entries may be kept. */
  room(): number {
    return Math.max(0, this.maxEntries - this.entries);
  }

  /** Counts `n` more entries kept (references read into arrays, nodes, header entries). */
  spend(n: number): void {
    this.entries += n;
    if (this.entries > this.maxEntries) this.overflow = true;
  }

  page(number: number): void {
    if (this.pages.size <= this.limit) this.pages.add(number);
  }

  /** A page-tree node under its object numbers, or (numbers null) unnumbered: answers the key it is kept under. */
  node(numbers: number[] | null, kids: Kids, count: number | undefined): number {
    if (count !== undefined) this.largestCount = Math.max(this.largestCount, count);
    this.spend(1);
    if (numbers === null) {
      const key = this.nextKey;
      this.nextKey -= 1;
      this.unnumbered.set(key, kids);
      return key;
    }
    for (const number of numbers) {
      const defined = this.nodes.get(number);
      if (defined) defined.push(kids);
      else this.nodes.set(number, [kids]);
    }
    return numbers[0]!;
  }

  array(number: number, refs: number[]): void {
    const defined = this.arrays.get(number);
    if (defined) defined.push(refs);
    else this.arrays.set(number, [refs]);
  }

  /**
   * The most pages any node holds, counting its kids' pages with each reference as often as it is made (a
   * reader walks a shared subtree once for each), at most one past the limit; a loop counts as past it. Every node
   * is a candidate root. Walked without recursion: a hostile tree may be a million levels deep.
   */
  largestTree(): number {
    const cap = this.limit + 1;
    const memo = new Map<number, number>();
    const visiting = new Set<number>();
    const lists = (kids: Kids): number[][] => ("refs" in kids ? [kids.refs] : (this.arrays.get(kids.array) ?? []));
    const alternatives = (key: number): number[][] =>
      key < LEAF ? lists(this.unnumbered.get(key)!) : (this.nodes.get(key) ?? []).flatMap(lists);
    interface Step {
      key: number;
      alternatives: number[][];
      alternative: number;
      index: number;
      sum: number;
      best: number;
    }
    const start = (key: number): Step => ({
      key,
      alternatives: alternatives(key),
      alternative: 0,
      index: 0,
      sum: 0,
      best: key >= 0 && this.pages.has(key) ? 1 : 0,
    });
    let largest = 0;
    for (const root of [...this.nodes.keys(), ...this.unnumbered.keys()]) {
      if (memo.has(root)) continue;
      const stack: Step[] = [start(root)];
      visiting.add(root);
      while (stack.length > 0) {
        const step = stack[stack.length - 1]!;
        const list = step.alternatives[step.alternative];
        if (list === undefined) {
          stack.pop();
          visiting.delete(step.key);
          memo.set(step.key, step.best);
          const parent = stack[stack.length - 1];
          if (parent) parent.sum = Math.min(cap, parent.sum + step.best);
          continue;
        }
        if (step.index >= list.length || step.sum >= cap) {
          step.best = Math.max(step.best, step.sum);
          step.alternative += 1;
          step.index = 0;
          step.sum = 0;
          continue;
        }
        const kid = list[step.index]!;
        step.index += 1;
        // A dictionary in place, or an object that is no node (a page, or anything else): one page at most.
        if (kid === LEAF || (kid >= 0 && !this.nodes.has(kid))) {
          step.sum = Math.min(cap, step.sum + 1);
          continue;
        }
        const known = memo.get(kid);
        if (known !== undefined) {
          step.sum = Math.min(cap, step.sum + known);
          continue;
        }
        if (visiting.has(kid)) return cap;
        visiting.add(kid);
        stack.push(start(kid));
      }
      largest = Math.max(largest, memo.get(root)!);
      if (largest >= cap) return cap;
    }
    return largest;
  }
}

const isObjectNumber = (word: string | undefined): boolean => word !== undefined && /^\d{1,10}$/.test(word);

/**
 * A forgiving lexer over a PDF's bytes, fed in pieces. It does not parse the file (a hostile file may lie about
 * its lengths and offsets); it notes what matters wherever it appears:
 * - each object's outermost value under its object number (`N G obj` in the file; an object stream's header
 *   inside one), and every page dictionary (`/Type /Page`) and page-tree node (`/Type /Pages`, with its `/Count`
 *   and `/Kids`, in place or by reference), names decoded (`#xx`), comments allowed between, inside strings and
 *   stream data too (counting too much is the safe side);
 * - every array of references that is an object of its own (a node's `/Kids` may be one);
 * - at each `stream` keyword, the dictionary before it (its filters, and whether it is an object stream);
 * - an `/Encrypt` anywhere in the file itself.
 */
class PdfLexer {
  private readonly token = new Uint8Array(maxTokenLength);
  private tokenLength = 0;
  /** Longer than anything that could matter: it matches nothing. */
  private overlong = false;
  private tokenKind: "name" | "word" | null = null;
  /** Inside a `#xx` escape of a name: the hex digits seen. */
  private escape: number[] | null = null;
  private pendingLt = false;
  private pendingGt = false;
  private inHexString = false;
  private inComment = false;
  private awaitingType = false;
  private frames: Frame[] = [];
  private lastClosed: Frame | null = null;
  private lastWasDictEnd = false;
  /** After `stream` and a carriage return, a line feed still belongs to the keyword's end of line. */
  private skipLineFeed = false;
  /** The object numbers whose value the next token begins. */
  private pending: number[] | null = null;
  /** The last two words read (for `N G obj`). */
  private lastWord = "";
  private wordBefore = "";

  /** The dictionary of the stream whose data `write` last said begins (null when none was just before it). */
  streamDict: StreamDict | null = null;

  /** `raw`: reading the file itself (not an object stream), where objects are `N G obj` and /Encrypt counts. */
  constructor(
    private readonly tree: PageTree,
    private readonly raw: boolean,
  ) {}

  /** The next token begins the value of these objects (an object stream's header says where each begins). */
  beginObject(numbers: number[]): void {
    if (this.tokenKind !== null) this.endToken();
    this.pending = numbers;
  }

  /**
   * Reads `bytes` from `from`. Answers where a stream's data begins, having read up to there (its dictionary in
   * `streamDict`; call again from there to read on), or -1 once the piece is read.
   */
  write(bytes: Buffer, from = 0): number {
    const length = bytes.length;
    for (let i = from; i < length; i += 1) {
      const byte = bytes[i]!;
      if (this.skipLineFeed) {
        this.skipLineFeed = false;
        return this.beginStream(byte === 0x0a ? i + 1 : i);
      }
      if (this.inHexString) {
        // Only hex digits and white space: anything else ends it and is read as itself.
        if (byte === 0x3e) {
          this.inHexString = false;
          continue;
        }
        if (charClass[byte] === WHITE || isHex(byte)) continue;
        this.inHexString = false;
      }
      if (this.pendingLt) {
        this.pendingLt = false;
        if (byte === 0x3c) {
          this.openDict();
          continue;
        }
        this.inHexString = true;
        // A string is a value of its own.
        this.pending = null;
        i -= 1;
        continue;
      }
      if (this.pendingGt) {
        this.pendingGt = false;
        if (byte === 0x3e) {
          this.closeDict();
          continue;
        }
      }
      const kind = charClass[byte];
      if (this.tokenKind !== null) {
        if (kind === 0) {
          this.addTokenByte(byte);
          // The rest of a word's run at once (stream data and padding are mostly long runs).
          if (this.tokenKind === "word") {
            while (i + 1 < length && charClass[bytes[i + 1]!] === 0) {
              i += 1;
              if (!this.overlong) this.keep(bytes[i]!);
            }
          }
          continue;
        }
        const ended = this.endToken();
        if (ended === "stream") {
          // After a carriage return, a line feed (here or at the start of the next piece) still ends the line.
          if (byte === 0x0d) {
            this.skipLineFeed = true;
            continue;
          }
          return this.beginStream(byte === 0x0a ? i + 1 : i);
        }
      }
      if (kind === WHITE) {
        if (byte === 0x0a || byte === 0x0d) this.inComment = false;
        // The rest of the run of white space at once.
        while (i + 1 < length && charClass[bytes[i + 1]!] === WHITE) {
          i += 1;
          if (bytes[i] === 0x0a || bytes[i] === 0x0d) this.inComment = false;
        }
        continue;
      }
      if (kind === 0) {
        this.tokenKind = "word";
        i -= 1;
        continue;
      }
      switch (byte) {
        case 0x2f: // "/"
          this.tokenKind = "name";
          break;
        case 0x25: // "%"
          this.inComment = true;
          break;
        case 0x3c: // "<"
          this.pendingLt = true;
          break;
        case 0x3e: // ">"
          this.pendingGt = true;
          break;
        case 0x5b: // "["
          this.otherToken();
          this.openArray();
          break;
        case 0x5d: // "]"
          this.otherToken();
          this.closeArray();
          break;
        default:
          this.otherToken();
          if (!this.inComment) this.pending = null;
      }
    }
    return -1;
  }

  /** The end of the file: a token still open is complete (a stream begun there has no data). */
  end(): void {
    if (this.tokenKind !== null) this.endToken();
  }

  private beginStream(at: number): number {
    const dict = this.lastWasDictEnd ? this.lastClosed : null;
    this.streamDict = dict && {
      filters: dict.filters,
      objectStream: dict.type === "ObjStm" || (dict.hasN === true && dict.hasFirst === true),
      indirectFilter: dict.indirectFilter === true,
      layout: dict.indirectLayout ? "indirect" : dict.n !== undefined && dict.first !== undefined ? { n: dict.n, first: dict.first } : null,
    };
    this.pending = null;
    // A stream's data is no dictionary: what it happens to hold must not be taken for structure.
    this.frames = [];
    this.lastClosed = null;
    this.lastWasDictEnd = false;
    return at;
  }

  private addTokenByte(byte: number): void {
    if (this.tokenKind === "name") {
      if (this.escape !== null) {
        this.escape.push(byte);
        if (this.escape.length === 2) {
          const decoded = parseInt(String.fromCharCode(...this.escape), 16);
          this.escape = null;
          if (!Number.isNaN(decoded)) this.keep(decoded);
        }
        return;
      }
      if (byte === 0x23) {
        this.escape = [];
        return;
      }
    }
    this.keep(byte);
  }

  private keep(byte: number): void {
    if (this.tokenLength < maxTokenLength) this.token[this.tokenLength++] = byte;
    else this.overlong = true;
  }

  /** Completes the name or word being read; answers the word, if it was one. */
  private endToken(): string | null {
    // Binary stream data is mostly long runs of "word": those are not spelled out.
    let text = "";
    if (!this.overlong) for (let i = 0; i < this.tokenLength; i += 1) text += String.fromCharCode(this.token[i]!);
    const kind = this.tokenKind;
    this.tokenLength = 0;
    this.overlong = false;
    this.tokenKind = null;
    this.escape = null;
    if (kind === "name") {
      this.name(text);
      return null;
    }
    // Words in a comment are no tokens (a reader skips them), so they do not part `/Type` from its value. But
    // `stream` still starts a stream: what looks like a comment here may be the tail of another stream's data.
    if (this.inComment) return text === "stream" ? text : null;
    // The dictionary just closed is the stream's: `beginStream` reads it before anything is forgotten.
    if (text === "stream") return text;
    this.word(text);
    return text;
  }

  private name(name: string): void {
    if (this.raw && name === "Encrypt") this.tree.encrypted = true;
    const top = this.frames[this.frames.length - 1];
    if (this.awaitingType) {
      this.awaitingType = false;
      // A page outside any dictionary kept track of (its structure forgotten) still counts.
      if (name === "Page" && !(top?.kind === "dict" && top.key === "Type")) this.tree.unnumberedPages += 1;
    } else if (name === "Type") {
      this.awaitingType = true;
    }
    // A name in a comment is no token to a reader: it does not part a dictionary from its stream, nor fill a key.
    if (this.inComment) return;
    this.lastWasDictEnd = false;
    this.pending = null;
    if (!top) return;
    if (top.kind === "array") {
      if (top.role === "Filter") this.frames[this.frames.length - 2]?.filters.push(name);
      return;
    }
    if (top.key === null) {
      top.key = name;
      top.valueKey = undefined;
      if (name === "N") top.hasN = true;
      if (name === "First") top.hasFirst = true;
      return;
    }
    if (top.key === "Type") top.type = name;
    if (top.key === "Filter") top.filters.push(name);
    top.key = null;
  }

  private word(word: string): void {
    this.awaitingType = false;
    this.lastWasDictEnd = false;
    const beforeLast = this.wordBefore;
    const last = this.lastWord;
    this.wordBefore = last;
    this.lastWord = word;
    if (word === "obj" || word === "endobj" || word === "endstream" || word === "trailer" || word === "xref") {
      this.frames = [];
      // In the file, `N G obj` begins object N; in an object stream the header says where objects begin.
      this.pending = this.raw && word === "obj" && isObjectNumber(beforeLast) && isObjectNumber(last) ? [Number(beforeLast)] : null;
      return;
    }
    this.pending = null;
    const top = this.frames[this.frames.length - 1];
    if (!top) return;
    if (top.kind === "array") {
      if (word === "R") {
        if (top.role === "Filter") {
          const dict = this.frames[this.frames.length - 2];
          if (dict) dict.indirectFilter = true;
        }
        if (top.refs && isObjectNumber(top.wordBefore)) {
          top.refs.push(Number(top.wordBefore));
          this.tree.spend(1);
        }
      }
      if (top.refs) {
        top.wordBefore = top.lastWord;
        top.lastWord = word;
      }
      return;
    }
    if (top.key !== null) {
      // A value's first word: a number, or the object number of a reference (when `R` follows).
      top.valueKey = top.key;
      top.valueWord = word;
      const number = Number(word);
      if (top.key === "Count" && Number.isFinite(number)) top.count = Math.max(top.count ?? number, number);
      if (top.key === "First" && Number.isInteger(number)) top.first = number;
      if (top.key === "N" && Number.isInteger(number)) top.n = number;
      top.key = null;
      return;
    }
    if (word === "R" && top.valueKey !== undefined) {
      // A reader looks these up: the value is whatever object the reference names.
      if (top.valueKey === "Filter") top.indirectFilter = true;
      if (top.valueKey === "N" || top.valueKey === "First") top.indirectLayout = true;
      if (top.valueKey === "Kids" && isObjectNumber(top.valueWord)) top.kids = { array: Number(top.valueWord) };
      top.valueKey = undefined;
    }
  }

  /** Any other delimiter: no name, so a `/Type` waiting for its value has none. */
  private otherToken(): void {
    if (this.inComment) return;
    this.awaitingType = false;
    this.lastWasDictEnd = false;
  }

  /** The role of an array about to open, from the key it is the value of. */
  private valueRole(): Frame["role"] {
    const top = this.frames[this.frames.length - 1];
    if (top?.kind !== "dict") return undefined;
    return top.key === "Filter" || top.key === "Kids" ? top.key : undefined;
  }

  private push(frame: Frame): void {
    if (this.frames.length >= maxDepth) {
      this.frames = [];
      return;
    }
    this.frames.push(frame);
  }

  private openDict(): void {
    this.otherToken();
    const numbers = this.pending ?? undefined;
    this.pending = null;
    this.push({ kind: "dict", key: null, filters: [], numbers });
  }

  private openArray(): void {
    const role = this.valueRole();
    const numbers = this.pending ?? undefined;
    this.pending = null;
    // References are kept only where pages may be listed: a /Kids array, or an array that is an object of its own.
    const refs = role === "Kids" || numbers ? [] : undefined;
    this.push({ kind: "array", key: null, filters: [], role, numbers, refs });
  }

  private closeDict(): void {
    this.otherToken();
    const top = this.frames[this.frames.length - 1];
    if (top?.kind !== "dict") {
      this.frames = [];
      return;
    }
    this.frames.pop();
    const parent = this.frames[this.frames.length - 1];
    this.define(top, parent);
    if (parent?.kind === "dict") parent.key = null;
    if (!parent) {
      this.lastClosed = top;
      this.lastWasDictEnd = true;
    }
  }

  private closeArray(): void {
    const top = this.frames[this.frames.length - 1];
    if (top?.kind !== "array") {
      this.frames = [];
      return;
    }
    this.frames.pop();
    const parent = this.frames[this.frames.length - 1];
    if (top.numbers && top.refs && top.refs.length > 0) for (const number of top.numbers) this.tree.array(number, top.refs);
    if (top.role === "Kids" && parent?.kind === "dict") parent.kids = { refs: top.refs ?? [] };
    if (parent?.kind === "dict") parent.key = null;
  }

  /**
   * What a dictionary just closed defines: a page or a page-tree node, under its object numbers; and, inside a
   * /Kids array, a kid of that node (a page counts one, a node its own pages). A page or node with no number
   * and in no /Kids still counts (a page one, a node as a root of its own).
   */
  private define(dict: Frame, parent: Frame | undefined): void {
    const inKids = parent?.kind === "array" && parent.role === "Kids" ? parent : null;
    if (dict.type === "Pages") {
      const kids = dict.kids ?? { refs: [] };
      if (dict.numbers) this.tree.node(dict.numbers, kids, dict.count);
      if (inKids || !dict.numbers) {
        const key = this.tree.node(null, kids, dict.count);
        inKids?.refs?.push(key);
      }
    } else if (dict.type === "Page") {
      for (const number of dict.numbers ?? []) this.tree.page(number);
      if (inKids) inKids.refs?.push(LEAF);
      else if (!dict.numbers) this.tree.unnumberedPages += 1;
    } else {
      inKids?.refs?.push(LEAF);
    }
  }
}

/** What every reader checks first: deflate, a window of at most 32 KiB, the check bits right, no preset dictionary. */
function isZlibHeader(bytes: Buffer): boolean {
  const method = bytes[0]!;
  const flags = bytes[1]!;
  return (method & 0x0f) === 8 && method >> 4 <= 7 && ((method << 8) | flags) % 31 === 0 && (flags & 0x20) === 0;
}

/** A stage's failure is only ever a refusal, which is recorded where it happens and thrown by the caller. */
function settled(work: Promise<void>): Promise<void> {
  return work.catch(() => undefined);
}

function isHex(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);
}

/** One step of a stream's decoding: takes bytes, passes its output on; done once its data has ended (or failed). */
interface Stage {
  write(bytes: Buffer): Promise<void>;
  end(): Promise<void>;
  readonly done: boolean;
}

/** Where a stream's decoded bytes go: an object stream's are read for pages once it has ended; others only counted. */
interface Sink {
  write(bytes: Buffer): void;
  end(): void;
}
const countOnly: Sink = { write: () => undefined, end: () => undefined };

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
  private expanded = 0;
  private objectStreamBytes = 0;
  /** What failed attempts to inflate a stream at once may have cost, all together. */
  private atOnceWaste = 0;
  private refusal: HttpError | null = null;
  private readonly inflaters = new Set<Inflate>();

  constructor(private readonly limits: typeof pdfLimits = pdfLimits) {
    this.tree = new PageTree(limits.pages, limits.treeEntries);
    this.lexer = new PdfLexer(this.tree, true);
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

  abort(): void {
    for (const inflater of this.inflaters) inflater.destroy();
    this.inflaters.clear();
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
    if (plan.chain.length === 1 && plan.chain[0] === "flate" && this.inflatedAtOnce(rest, plan.sink)) return;
    const stage = this.pipeline(plan);
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
  private plan(dict: StreamDict | null): { chain: FilterKind[]; sink: Sink; objectStream: boolean } | null {
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

  /** The stages for a plan: each passes its output to the next, the last to the sink. */
  private pipeline({ chain, sink, objectStream }: { chain: FilterKind[]; sink: Sink; objectStream: boolean }): Stage {
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
  private inflatedAtOnce(rest: Buffer, sink: Sink): boolean {
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
    if (!this.refusal) {
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
        for (let at = 0; at < bytes.length && !decoder.done && !this.refusal; at += syncSliceBytes) {
          const { out, produced } = decoder.write(bytes.subarray(at, at + syncSliceBytes), this.limits.expandedBytes - this.expanded + 1);
          if (expands) this.count(produced);
          if (out.length > 0 && !this.refusal) await pass(out);
        }
        if (decoder.done && !this.refusal) {
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
            if (this.refusal) break;
            await pass(out);
          }
        } catch {
          if (!this.refusal) this.count(inflateChunkBytes);
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
    if (this.expanded > this.limits.expandedBytes) this.refuse(new HttpError(400, expandsTooFarMessage(this.limits.expandedBytes)));
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
    if (atEnd && pages <= limit) pages = tree.largestTree();
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

/**
 * An object stream's objects, read into the page tree: its header's `n` pairs (object number, offset from `first`)
 * say where each object begins, the last pair for a number winning, as a reader takes them. Without a header that
 * reads (or a layout), a reader takes none of its objects; they are read all the same, without numbers.
 */
function readObjectStream(data: Buffer, layout: { n: number; first: number } | null, tree: PageTree): void {
  const starts = new Map<number, number>();
  if (layout !== null) {
    // Header entries count against what the tree keeps, before they are kept: a header may claim millions.
    const pairs = headerPairs(data, Math.min(layout.n, tree.room() + 1));
    tree.spend(pairs.length / 2);
    if (tree.overflow) return;
    for (let at = 0; at < pairs.length; at += 2) starts.set(pairs[at]!, layout.first + pairs[at + 1]!);
  }
  const byStart = new Map<number, number[]>();
  for (const [number, start] of starts) {
    if (start >= data.length) continue;
    const numbers = byStart.get(start);
    if (numbers) numbers.push(number);
    else byStart.set(start, [number]);
  }
  const lexer = new PdfLexer(tree, false);
  // Object streams hold no streams: where one seems to begin, reading simply goes on.
  const read = (piece: Buffer) => {
    for (let at = lexer.write(piece); at >= 0; at = lexer.write(piece, at));
  };
  let at = 0;
  for (const start of [...byStart.keys()].sort((a, b) => a - b)) {
    read(data.subarray(at, start));
    lexer.beginObject(byStart.get(start)!);
    at = start;
  }
  read(data.subarray(at));
  lexer.end();
}

/**
 * The first `n` pairs of whole numbers at the start of an object stream, up to the first thing that is none, one
 * after the other in one array.
 */
function headerPairs(data: Buffer, n: number): number[] {
  const pairs: number[] = [];
  const numbers: number[] = [];
  let at = 0;
  while (pairs.length < 2 * n) {
    while (at < data.length && charClass[data[at]!] === WHITE) at += 1;
    const start = at;
    while (at < data.length && at - start < 10 && data[at]! >= 0x30 && data[at]! <= 0x39) at += 1;
    if (at === start || (at < data.length && charClass[data[at]!] !== WHITE)) return pairs;
    numbers.push(Number(data.toString("latin1", start, at)));
    if (numbers.length === 2) {
      pairs.push(numbers[0]!, numbers[1]!);
      numbers.length = 0;
    }
  }
  return pairs;
}

type FilterKind = "flate" | "lzw" | "runLength" | "ascii85" | "asciiHex";

function filterOf(name: string): FilterKind | null {
  switch (name) {
    case "FlateDecode":
    case "Fl":
      return "flate";
    case "LZWDecode":
    case "LZW":
      return "lzw";
    case "RunLengthDecode":
    case "RL":
      return "runLength";
    case "ASCII85Decode":
    case "A85":
      return "ascii85";
    case "ASCIIHexDecode":
    case "AHx":
      return "asciiHex";
    default:
      return null;
  }
}

/** A decoder that runs on this thread, a piece at a time: `room` bounds what one piece may produce. */
interface SyncDecoder {
  readonly done: boolean;
  write(bytes: Buffer, room: number): { out: Buffer; produced: number };
}

const nothing = Buffer.alloc(0);

/** Run-length data (a length byte, then a literal run or one byte repeated). */
class RunLengthDecoder implements SyncDecoder {
  done = false;
  private literal = 0;
  private repeat = 0;

  constructor(private readonly emit: boolean) {}

  write(bytes: Buffer, room: number): { out: Buffer; produced: number } {
    const out: Buffer[] = [];
    let produced = 0;
    let i = 0;
    while (i < bytes.length && !this.done && produced < room) {
      if (this.literal > 0) {
        const take = Math.min(this.literal, bytes.length - i);
        if (this.emit) out.push(bytes.subarray(i, i + take));
        produced += take;
        this.literal -= take;
        i += take;
      } else if (this.repeat > 0) {
        if (this.emit) out.push(Buffer.alloc(this.repeat, bytes[i]!));
        produced += this.repeat;
        this.repeat = 0;
        i += 1;
      } else {
        const length = bytes[i]!;
        i += 1;
        if (length === 128) this.done = true;
        else if (length < 128) this.literal = length + 1;
        else this.repeat = 257 - length;
      }
    }
    return { out: this.emit ? Buffer.concat(out) : nothing, produced };
  }
}

/**
 * LZW data as PDF has it (codes of 9 to 12 bits, growing one code early; 256 clears the table, 257 ends it).
 * The table keeps each entry's length, so counting needs no bytes; they are built only when something reads them.
 */
class LzwDecoder implements SyncDecoder {
  done = false;
  private readonly prefix = new Int16Array(4096);
  private readonly suffix = new Uint8Array(4096);
  private readonly lengths = new Uint16Array(4096);
  /** Each entry's first byte (what a new entry after it ends with). */
  private readonly firsts = new Uint8Array(4096);
  private next = 258;
  private codeLength = 9;
  private previous = -1;
  private bits = 0;
  private bitCount = 0;

  constructor(private readonly emit: boolean) {
    for (let code = 0; code < 256; code += 1) {
      this.prefix[code] = -1;
      this.suffix[code] = code;
      this.lengths[code] = 1;
      this.firsts[code] = code;
    }
  }

  write(bytes: Buffer, room: number): { out: Buffer; produced: number } {
    const out: Buffer[] = [];
    let produced = 0;
    for (let i = 0; i < bytes.length && !this.done && produced < room; i += 1) {
      this.bits = ((this.bits << 8) | bytes[i]!) & 0xffffff;
      this.bitCount += 8;
      while (this.bitCount >= this.codeLength && !this.done) {
        const code = (this.bits >>> (this.bitCount - this.codeLength)) & ((1 << this.codeLength) - 1);
        this.bitCount -= this.codeLength;
        if (code === 256) {
          this.next = 258;
          this.codeLength = 9;
          this.previous = -1;
          continue;
        }
        if (code === 257 || code > this.next || (code === this.next && this.previous < 0)) {
          this.done = true;
          break;
        }
        // A code not yet in the table is the previous entry followed by that entry's own first byte.
        const known = code < this.next;
        const first = known ? this.firsts[code]! : this.firsts[this.previous]!;
        const length = known ? this.lengths[code]! : this.lengths[this.previous]! + 1;
        if (this.previous >= 0 && this.next < 4096) {
          this.prefix[this.next] = this.previous;
          this.suffix[this.next] = known ? first : this.firsts[this.previous]!;
          this.lengths[this.next] = this.lengths[this.previous]! + 1;
          this.firsts[this.next] = this.firsts[this.previous]!;
          this.next += 1;
        }
        if (this.emit) out.push(this.entry(code, length));
        produced += length;
        this.previous = code;
        while (this.codeLength < 12 && this.next + 1 >= 1 << this.codeLength) this.codeLength += 1;
      }
    }
    return { out: this.emit ? Buffer.concat(out) : nothing, produced };
  }

  private entry(code: number, length: number): Buffer {
    const bytes = Buffer.alloc(length);
    let at = code;
    for (let n = length - 1; n >= 0 && at >= 0; n -= 1) {
      bytes[n] = this.suffix[at]!;
      at = this.prefix[at]!;
    }
    return bytes;
  }
}

/** ASCII base-85 text (to its `~>`); anything else ends it. */
class Ascii85Decoder implements SyncDecoder {
  done = false;
  private group: number[] = [];

  write(bytes: Buffer): { out: Buffer; produced: number } {
    const out: number[] = [];
    for (let i = 0; i < bytes.length && !this.done; i += 1) {
      const byte = bytes[i]!;
      if (charClass[byte] === WHITE) continue;
      if (byte === 0x7e) {
        this.flushPartial(out);
        this.done = true;
      } else if (byte === 0x7a && this.group.length === 0) {
        out.push(0, 0, 0, 0);
      } else if (byte >= 0x21 && byte <= 0x75) {
        this.group.push(byte - 0x21);
        if (this.group.length === 5) {
          const value = this.group.reduce((sum, digit) => sum * 85 + digit, 0);
          out.push((value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
          this.group = [];
        }
      } else {
        this.done = true;
      }
    }
    return { out: Buffer.from(out), produced: out.length };
  }

  private flushPartial(out: number[]): void {
    const n = this.group.length;
    if (n < 2) return;
    while (this.group.length < 5) this.group.push(84);
    const value = this.group.reduce((sum, digit) => sum * 85 + digit, 0);
    out.push(...[(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].slice(0, n - 1));
  }
}

/** Hexadecimal text (to its `>`); anything else ends it. */
class AsciiHexDecoder implements SyncDecoder {
  done = false;
  private high = -1;

  write(bytes: Buffer): { out: Buffer; produced: number } {
    const out: number[] = [];
    for (let i = 0; i < bytes.length && !this.done; i += 1) {
      const byte = bytes[i]!;
      if (charClass[byte] === WHITE) continue;
      if (!isHex(byte)) {
        if (this.high >= 0) out.push(this.high << 4);
        this.done = true;
        break;
      }
      const digit = parseInt(String.fromCharCode(byte), 16);
      if (this.high < 0) {
        this.high = digit;
      } else {
        out.push((this.high << 4) | digit);
        this.high = -1;
      }
    }
    return { out: Buffer.from(out), produced: out.length };
  }
}
