import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { HttpError } from "../../http/errors";

/**
 * The request's text, pulled a chunk at a time (so a slow consumer slows the client), decoded as UTF-8
 * across chunk boundaries. Stopping early leaves the request undestroyed, so the answer can still be sent.
 */
export class BodySource {
  private readonly iterator: AsyncIterator<Buffer>;
  private readonly decoder = new StringDecoder("utf8");
  private text = "";
  private position = 0;
  private done = false;
  private bytes = 0;

  constructor(
    stream: Readable,
    private readonly maxBytes: number,
  ) {
    this.iterator = stream.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer>;
  }

  /** True when a character is ready to read; false at the end of the body. */
  async fill(): Promise<boolean> {
    while (this.position >= this.text.length) {
      if (this.done) return false;
      const next = await this.iterator.next();
      if (next.done) {
        this.done = true;
        this.text = this.decoder.end();
      } else {
        const chunk: Buffer = typeof next.value === "string" ? Buffer.from(next.value) : next.value;
        this.bytes += chunk.length;
        if (this.bytes > this.maxBytes) throw new HttpError(413, "Request body is too large");
        this.text = this.decoder.write(chunk);
      }
      this.position = 0;
    }
    return true;
  }

  /** True when the next character is `char` (reading more if needed). */
  async fillAnd(char: string): Promise<boolean> {
    return (await this.fill()) && this.peek() === char;
  }

  /** The next character (after `fill` answered true). */
  peek(): string {
    return this.text[this.position]!;
  }

  take(): string {
    return this.text[this.position++]!;
  }

  /** The ready characters up to (not including) the first that matches `stop` (a global pattern); at least one. */
  takeWhile(stop: RegExp): string {
    stop.lastIndex = this.position;
    const found = stop.exec(this.text);
    const end = found === null ? this.text.length : Math.max(found.index, this.position + 1);
    const taken = this.text.slice(this.position, end);
    this.position = end;
    return taken;
  }

  async skipWhitespace(): Promise<void> {
    while ((await this.fill()) && /[ \t\n\r]/.test(this.peek())) this.take();
  }

  /** Stops reading (the rest of the body, if any, is the caller's to discard). */
  async release(): Promise<void> {
    await this.iterator.return?.();
  }
}
