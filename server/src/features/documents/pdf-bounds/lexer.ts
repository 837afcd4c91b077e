import { LEAF, type Kids, type PageTree } from "./page-tree";
import { PdfTokenizer } from "./tokenizer";

/**
 * Nesting kept track of; deeper is nonsense, and the structure is forgotten until the next object. Deep enough that
 * a page tree nested directly inside itself past it is more than a reader's own recursion takes.
 */
const maxDepth = 10_000;

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
export interface StreamDict {
  filters: string[];
  objectStream: boolean;
  indirectFilter: boolean;
  /** An object stream's objects and where they begin: null when it does not say; "indirect" when by reference. */
  layout: { n: number; first: number } | null | "indirect";
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
export class PdfLexer extends PdfTokenizer {
  private awaitingType = false;
  private frames: Frame[] = [];
  private lastClosed: Frame | null = null;
  private lastWasDictEnd = false;
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
  ) {
    super();
  }

  /** The next token begins the value of these objects (an object stream's header says where each begins). */
  beginObject(numbers: number[]): void {
    this.completeToken();
    this.pending = numbers;
  }

  protected streamBegins(): void {
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
  }

  protected stringBegins(): void {
    // A string is a value of its own.
    this.pending = null;
  }

  protected otherDelimiter(): void {
    this.otherToken();
    if (!this.inComment) this.pending = null;
  }

  protected name(name: string): void {
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

  protected word(word: string): void {
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

  protected openDict(): void {
    this.otherToken();
    const numbers = this.pending ?? undefined;
    this.pending = null;
    this.push({ kind: "dict", key: null, filters: [], numbers });
  }

  protected openArray(): void {
    this.otherToken();
    const role = this.valueRole();
    const numbers = this.pending ?? undefined;
    this.pending = null;
    // References are kept only where pages may be listed: a /Kids array, or an array that is an object of its own.
    const refs = role === "Kids" || numbers ? [] : undefined;
    this.push({ kind: "array", key: null, filters: [], role, numbers, refs });
  }

  protected closeDict(): void {
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

  protected closeArray(): void {
    this.otherToken();
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
