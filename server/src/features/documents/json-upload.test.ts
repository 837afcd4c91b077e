import { Readable } from "node:stream";
import { readJsonUpload, type JsonFile } from "./json-upload";

/** The body as a stream cut into pieces of `size` bytes (1: every escape and character split across reads). */
const streamOf = (text: string, size: number) => {
  const bytes = Buffer.from(text);
  const pieces: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += size) pieces.push(bytes.subarray(start, start + size));
  return Readable.from(pieces);
};

async function read(text: string, size = 7) {
  let file: { mediaType: string | null; before: Record<string, unknown>; bytes: Buffer } | undefined;
  const body = await readJsonUpload(streamOf(text, size), {
    maxBytes: 1024 * 1024,
    onFile: async ({ mediaType, before, bytes }: JsonFile) => {
      const parts: Buffer[] = [];
      for await (const part of bytes) parts.push(part);
      file = { mediaType, before, bytes: Buffer.concat(parts) };
    },
  });
  return { body, file };
}

const status = (promise: Promise<unknown>) =>
  promise.then(
    () => 0,
    (error: { status?: number }) => error.status ?? -1,
  );

describe("the streaming JSON reader of uploads", () => {
  const payload = Buffer.from(Array.from({ length: 300 }, (_, n) => (n * 7) % 256));
  const base64 = payload.toString("base64");

  it("decodes a data URL's bytes across any split, with the members before and after it", async () => {
    for (const size of [1, 3, 4, 5, 64, 100_000]) {
      const { body, file } = await read(
        JSON.stringify({ name: "a.pdf", content: `data:application/pdf;base64,${base64}`, category: "Legal", n: [1, { x: "}" }] }),
        size,
      );
      expect(Buffer.compare(file!.bytes, payload)).toBe(0);
      expect(file!.mediaType).toBe("application/pdf");
      expect(file!.before).toEqual({ name: "a.pdf" });
      expect(body).toEqual({ name: "a.pdf", content: "data:application/pdf;base64,", category: "Legal", n: [1, { x: "}" }] });
    }
  });

  it("reads JSON escapes in the base64 text (\\/ and \\u) and anywhere else", async () => {
    const escaped = base64.replaceAll("/", "\\/").replaceAll("A", "\\u0041");
    const { body, file } = await read(`{"content":"data:;base64,${escaped}","name":"caf\\u00e9 \\"x\\".txt"}`, 2);
    expect(Buffer.compare(file!.bytes, payload)).toBe(0);
    expect(file!.mediaType).toBeNull();
    expect(file!.before).toEqual({});
    expect(body).toEqual({ content: "data:;base64,", name: 'café "x".txt' });
  });

  it("keeps any other content as a string, and reads bodies that are not objects as JSON.parse does", async () => {
    expect((await read(JSON.stringify({ content: "Just words, with a comma", category: "General" }), 3)).body).toEqual({
      content: "Just words, with a comma",
      category: "General",
    });
    expect((await read(JSON.stringify({ content: '{"title":"Q3"}' }))).body).toEqual({ content: '{"title":"Q3"}' });
    expect((await read(" [1, 2] ")).body).toEqual([1, 2]);
    expect((await read("")).body).toEqual({});
    expect((await read('{"__proto__": {"x": 1}}')).body).toHaveProperty("__proto__", { x: 1 });
  });

  it("refuses malformed JSON and a bad data URL with 400", async () => {
    for (const text of [
      '{"name": "a"',
      '{"name": "a",}',
      '{"name" "a"}',
      '{"a": tru}',
      '{"a": 1} x',
      '{"content": "data:;base64,QUJD',
      '{"a": "\\x"}',
      '{"a": "line\nbreak"}',
      "{,}",
    ]) {
      expect(await status(read(text)), text).toBe(400);
    }
    for (const content of [
      "data:text/plain,hello",
      "data:;base64,QU=JD",
      "data:;base64,QUJDR",
      "data:;base64,QU\\nJD",
      "data:;base64,QUJD===",
      "data:;base64,QQ==QUJD",
    ]) {
      expect(await status(read(`{"content": "${content}"}`)), content).toBe(400);
    }
    expect(await status(read('{"content": "data:;base64,QUJD", "content": "again"}'))).toBe(400);
  });

  it("refuses with 413 a body longer than allowed", async () => {
    const long = JSON.stringify({ content: `data:;base64,${"QUJD".repeat(300_000)}` });
    expect(await status(read(long, 65_536))).toBe(413);
  });
});
