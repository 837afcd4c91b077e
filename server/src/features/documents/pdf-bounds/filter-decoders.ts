import { charClass, isHex, WHITE } from "./syntax";

/** A decoder that runs on this thread, a piece at a time: `room` bounds what one piece may produce. */
export interface SyncDecoder {
  readonly done: boolean;
  write(bytes: Buffer, room: number): { out: Buffer; produced: number };
}

export const nothing = Buffer.alloc(0);

export type FilterKind = "flate" | "lzw" | "runLength" | "ascii85" | "asciiHex";

export function filterOf(name: string): FilterKind | null {
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

/** Run-length data (a length byte, then a literal run or one byte repeated). */
export class RunLengthDecoder implements SyncDecoder {
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
export class LzwDecoder implements SyncDecoder {
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
export class Ascii85Decoder implements SyncDecoder {
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
export class AsciiHexDecoder implements SyncDecoder {
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
