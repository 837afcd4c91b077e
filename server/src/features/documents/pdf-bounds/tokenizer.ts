import { charClass, isHex, WHITE } from "./syntax";

/** Longest name or word spelled out (longer ones are read through, and match nothing). */
const maxTokenLength = 32;

/**
 * PDF's tokens, read from its bytes fed in pieces: names (`#xx` decoded), words, dictionaries' and arrays' brackets,
 * hex strings and comments, and the `stream` keyword (after which the stream's data begins). What the tokens mean
 * is the subclass's to note; this reads on through anything, as a forgiving reader does.
 */
export abstract class PdfTokenizer {
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
  protected inComment = false;
  /** After `stream` and a carriage return, a line feed still belongs to the keyword's end of line. */
  private skipLineFeed = false;

  /** A name, decoded (also in a comment: `inComment` says so). */
  protected abstract name(name: string): void;
  /** A word outside any comment (a number, a keyword, `R`); never `stream`. */
  protected abstract word(word: string): void;
  protected abstract openDict(): void;
  protected abstract closeDict(): void;
  protected abstract openArray(): void;
  protected abstract closeArray(): void;
  /** A hex string begins. */
  protected abstract stringBegins(): void;
  /** Any other delimiter (parentheses, braces), in a comment or not. */
  protected abstract otherDelimiter(): void;
  /** A `stream` keyword has ended: its data follows. */
  protected abstract streamBegins(): void;

  /**
   * Reads `bytes` from `from`. Answers where a stream's data begins, having read up to there (`streamBegins` has
   * been told; call again from there to read on), or -1 once the piece is read.
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
        this.stringBegins();
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
          this.openArray();
          break;
        case 0x5d: // "]"
          this.closeArray();
          break;
        default:
          this.otherDelimiter();
      }
    }
    return -1;
  }

  /** The end of the file: a token still open is complete (a stream begun there has no data). */
  end(): void {
    this.completeToken();
  }

  /** Completes a token still open (at the end of the file, or where an object stream's header says an object begins). */
  protected completeToken(): void {
    if (this.tokenKind !== null) this.endToken();
  }

  private beginStream(at: number): number {
    this.streamBegins();
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
    // The dictionary just closed is the stream's: `streamBegins` reads it before anything is forgotten.
    if (text === "stream") return text;
    this.word(text);
    return text;
  }
}
