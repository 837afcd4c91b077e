import { createHash } from "node:crypto";
import { PassThrough, Readable, Writable } from "node:stream";
import { unzip } from "../../testing/archive-fixtures";
import { writeArchive, type ArchiveEntry, type ManifestFile } from "./archive-writer";

// The zip writer alone: entries opened one at a time when their turn comes, each measured as it passes, and a
// destination that goes away (or a source that fails) stops the work and closes what was open.

/** Collects what is written, as a client that reads everything. */
function sink() {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

const manifestOf = (files: ManifestFile[]) => ({ files });
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("writeArchive", () => {
  it("opens each entry only when the one before has passed, and lists every entry's SHA-256 and size in manifest.json", async () => {
    const opened: string[] = [];
    const finished: string[] = [];
    const contents = { "a.txt": Buffer.from("first"), "b/c.pdf": Buffer.alloc(300_000, 7), "d.csv": Buffer.from("x,y\r\n") };
    const entries: ArchiveEntry[] = Object.entries(contents).map(([path, bytes]) => ({
      path,
      compress: path !== "b/c.pdf",
      open: () => {
        // The one before is wholly written when the next is opened.
        expect(finished).toEqual(opened);
        opened.push(path);
        const source = Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]);
        source.once("end", () => finished.push(path));
        return source;
      },
    }));
    const out = sink();
    const written = await writeArchive(entries, out.stream, manifestOf, new AbortController().signal);
    expect(opened).toEqual(Object.keys(contents));
    const expected = Object.entries(contents).map(([path, bytes]) => ({ path, sha256: sha256(bytes), bytes: bytes.length }));
    expect(written.files).toEqual(expected);
    const read = await unzip(out.bytes());
    expect(read.map((entry) => entry.path)).toEqual([...Object.keys(contents), "manifest.json"]);
    expect(read[1]!.bytes).toEqual(contents["b/c.pdf"]);
    expect(JSON.parse(read[3]!.bytes.toString("utf8"))).toEqual({ files: expected });
  });

  it("stops when the destination goes away: the open source is destroyed and no later entry is opened", async () => {
    const first = new PassThrough();
    let laterOpened = false;
    const entries: ArchiveEntry[] = [
      { path: "big.pdf", compress: false, open: () => first },
      {
        path: "later.pdf",
        compress: false,
        open: () => {
          laterOpened = true;
          return Readable.from([Buffer.from("never")]);
        },
      },
    ];
    // A client that takes a little and then hangs up.
    let received = 0;
    const destination = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (received > 64 * 1024) destination.destroy(new Error("the client went away"));
        else done();
      },
    });
    const writing = writeArchive(entries, destination, manifestOf, new AbortController().signal);
    for (let index = 0; index < 50 && !first.destroyed; index += 1) first.write(Buffer.alloc(16 * 1024, index));
    await expect(writing).rejects.toThrow();
    expect(first.destroyed).toBe(true);
    expect(laterOpened).toBe(false);
  });

  it("stops on an abort and on a source that fails, and never writes the manifest then", async () => {
    const hanging = new PassThrough();
    const aborted = new AbortController();
    const out = sink();
    const writing = writeArchive([{ path: "a.pdf", compress: false, open: () => hanging }], out.stream, manifestOf, aborted.signal);
    await vi.waitFor(() => expect(hanging.listenerCount("data") + hanging.listenerCount("readable")).toBeGreaterThan(0));
    aborted.abort(new Error("the client went away"));
    await expect(writing).rejects.toThrow("the client went away");
    expect(hanging.destroyed).toBe(true);

    const failing = new Readable({
      read() {
        this.destroy(new Error("object storage unreachable"));
      },
    });
    const broken = sink();
    await expect(
      writeArchive([{ path: "b.pdf", compress: false, open: () => failing }], broken.stream, manifestOf, new AbortController().signal),
    ).rejects.toThrow("object storage unreachable");
    expect(broken.bytes().includes(Buffer.from("manifest.json"))).toBe(false);
  });
});
