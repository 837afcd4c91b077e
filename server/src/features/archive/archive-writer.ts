// Streams a zip one entry at a time: each entry's bytes are opened only when its turn comes, counted and hashed as they
// pass into the zip, and the zip is read as fast as its destination takes it. manifest.json, with every entry's
// SHA-256 and size, is the last entry: it is known only once the others have passed.
import { createHash } from "node:crypto";
import { Readable, Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ZipFile } from "yazl";

export interface ArchiveEntry {
  path: string;
  /** Opened when the entry's turn comes, never before. */
  open: () => Promise<Readable> | Readable;
  /** Papers are compressed already: stored as they are. Text is deflated. */
  compress: boolean;
  mtime?: Date;
}

export interface ManifestFile {
  path: string;
  sha256: string;
  bytes: number;
}

export const manifestPath = "manifest.json";

/** Hashes and counts what passes through it. */
class Measure extends Transform {
  private readonly hash = createHash("sha256");
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    done(null, chunk);
  }

  digest(): string {
    return this.hash.digest("hex");
  }
}

/**
 * Adds one entry and waits until its bytes have all gone into the zip: its measure, or the source's failure. A source
 * that fails or an abort (`signal`) destroys the source; the caller then ends the zip.
 */
function addEntry(zip: ZipFile, entry: ArchiveEntry, signal: AbortSignal): Promise<ManifestFile> {
  return new Promise((resolve, reject) => {
    let source: Readable | undefined;
    const measure = new Measure();
    const stop = (error: unknown) => {
      signal.removeEventListener("abort", aborted);
      source?.destroy();
      measure.destroy();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const aborted = () => stop(signal.reason);
    signal.addEventListener("abort", aborted, { once: true });
    measure.once("end", () => {
      signal.removeEventListener("abort", aborted);
      resolve({ path: entry.path, sha256: measure.digest(), bytes: measure.bytes });
    });
    measure.once("error", stop);
    zip.addReadStreamLazy(entry.path, { compress: entry.compress, mtime: entry.mtime ?? new Date() }, (give) => {
      if (signal.aborted) return;
      Promise.resolve()
        .then(entry.open)
        .then((opened) => {
          source = opened;
          if (signal.aborted) return void opened.destroy();
          // pipe() passes on the source's pace; its errors are not passed on, so they are heard here.
          opened.once("error", stop);
          give(null, opened.pipe(measure));
        }, stop);
    });
  });
}

export interface WrittenArchive {
  files: ManifestFile[];
}

/**
 * Writes the entries, then manifest.json (`manifestOf` given every other file), to `destination`. Rejects when a source
 * fails, the destination goes away or `signal` aborts; the zip is then left unfinished (no central directory), which
 * any reader and the offline check refuse.
 */
export async function writeArchive(
  entries: AsyncIterable<ArchiveEntry> | Iterable<ArchiveEntry>,
  destination: Writable,
  manifestOf: (files: ManifestFile[]) => unknown,
  signal: AbortSignal,
): Promise<WrittenArchive> {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const stopped = new AbortController();
  const stop = () => stopped.abort(signal.reason ?? new Error("the archive was stopped"));
  if (signal.aborted) stop();
  else signal.addEventListener("abort", stop, { once: true });
  zip.on("error", (error: unknown) => stopped.abort(error));
  const written = pipeline(output, destination).catch((error: unknown) => {
    stopped.abort(error);
    throw error;
  });
  // Heard at once, as well as awaited below: a destination gone midway must not be an unhandled rejection meanwhile.
  written.catch(() => undefined);
  try {
    const files: ManifestFile[] = [];
    for await (const entry of entries) {
      stopped.signal.throwIfAborted();
      files.push(await addEntry(zip, entry, stopped.signal));
    }
    stopped.signal.throwIfAborted();
    zip.addBuffer(Buffer.from(`${JSON.stringify(manifestOf(files), null, 2)}\n`), manifestPath, { compress: true });
    zip.end();
    await written;
    return { files };
  } catch (error) {
    stopped.abort(error);
    output.destroy();
    await written.catch(() => undefined);
    throw error;
  } finally {
    signal.removeEventListener("abort", stop);
  }
}

/** Text made a row at a time (a record table, the audit export) as a stream of its UTF-8 bytes. */
export function textStream(lines: Iterable<string> | AsyncIterable<string>): Readable {
  return Readable.from(lines, { objectMode: false });
}
