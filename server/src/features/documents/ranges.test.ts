import { wantedBytes } from "../../http/byte-range";
import { useTestContext } from "../../testing/test-context";
import { uploadFixtures } from "../../testing/upload-fixtures";

const ctx = useTestContext();
const { api, board, streamedUpload } = uploadFixtures(ctx);

/** A text file of `size` bytes, no two lines alike, so any slice of it shows where it was cut. */
function numberedText(size: number): Buffer {
  const lines: string[] = [];
  let length = 0;
  for (let n = 0; length < size; n += 1) {
    const line = `line ${String(n).padStart(8, "0")}\n`;
    lines.push(line);
    length += line.length;
  }
  return Buffer.from(lines.join("")).subarray(0, size);
}

const mib = 1024 * 1024;

async function uploaded(size: number) {
  const { founder } = await board();
  const bytes = numberedText(size);
  const created = await streamedUpload(founder, "long.txt", bytes);
  expect(created.status).toBe(201);
  const get = (headers: Record<string, string> = {}) => {
    let call = api().get(`/api/documents/${created.body.id}/download`).set("Authorization", founder.bearer).responseType("blob");
    for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
    return call;
  };
  return { bytes, get };
}

describe("downloading a file in byte ranges", () => {
  it("answers one range (a-b, a-, -n) with 206, Content-Range and its length, across the 1 MiB chunks", async () => {
    const size = 2 * mib + 12_345;
    const { bytes, get } = await uploaded(size);
    const whole = await get();
    expect(whole.status).toBe(200);
    expect(whole.headers["accept-ranges"]).toBe("bytes");
    const etag = whole.headers.etag as string;
    const cases: [string, number, number][] = [
      ["bytes=0-99", 0, 99],
      // Across the first chunk's end and into the third.
      [`bytes=${mib - 10}-${2 * mib + 9}`, mib - 10, 2 * mib + 9],
      [`bytes=${mib}-${mib}`, mib, mib],
      [`bytes=${2 * mib}-`, 2 * mib, size - 1],
      ["bytes=-500", size - 500, size - 1],
      // An end past the file is cut to it, and a suffix longer than the file is the whole file.
      [`bytes=${size - 5}-${size + 100}`, size - 5, size - 1],
      [`bytes=-${size + 7}`, 0, size - 1],
      [`bytes=${size - 1}-${size - 1}`, size - 1, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const part = await get({ Range: range });
      expect(part.status, range).toBe(206);
      expect(part.headers["content-range"], range).toBe(`bytes ${start}-${end}/${size}`);
      expect(part.headers["content-length"], range).toBe(String(end - start + 1));
      expect(part.headers.etag).toBe(etag);
      expect(Buffer.compare(part.body as Buffer, bytes.subarray(start, end + 1)), range).toBe(0);
    }
  });

  it("answers several ranges, another unit or a malformed header with the whole file (200)", async () => {
    const { bytes, get } = await uploaded(5000);
    for (const range of ["bytes=0-9,20-29", "bytes=0-9, -5", "items=0-9", "bytes=abc", "bytes=-", "bytes=9-3", "bytes 0-9"]) {
      const answer = await get({ Range: range });
      expect(answer.status, range).toBe(200);
      expect(answer.headers["content-range"], range).toBeUndefined();
      expect(answer.headers["content-length"]).toBe(String(bytes.length));
      expect(Buffer.compare(answer.body as Buffer, bytes), range).toBe(0);
    }
  });

  it("refuses a range outside the file with 416 and Content-Range: bytes */size, as the error body", async () => {
    const { get } = await uploaded(5000);
    for (const range of ["bytes=5000-", "bytes=6000-7000", "bytes=-0"]) {
      const refused = await get({ Range: range });
      expect(refused.status, range).toBe(416);
      expect(refused.headers["content-range"]).toBe("bytes */5000");
      expect(refused.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse((refused.body as Buffer).toString())).toEqual({ message: "The range asked for lies outside the file" });
    }
  });

  it("sends the whole file when If-Range names another version, and a 304 wins over a Range for the current tag", async () => {
    const { bytes, get } = await uploaded(5000);
    const etag = (await get()).headers.etag as string;
    const same = await get({ Range: "bytes=10-19", "If-Range": etag });
    expect(same.status).toBe(206);
    expect((same.body as Buffer).toString()).toBe(bytes.subarray(10, 20).toString());
    for (const other of ['"another-version"', "Wed, 21 Oct 2026 07:28:00 GMT", `W/${etag}`]) {
      const changed = await get({ Range: "bytes=10-19", "If-Range": other });
      expect(changed.status, other).toBe(200);
      expect(Buffer.compare(changed.body as Buffer, bytes)).toBe(0);
    }
    const current = await get({ Range: "bytes=10-19", "If-None-Match": etag });
    expect(current.status).toBe(304);
    expect(current.headers["accept-ranges"]).toBe("bytes");
  });

  it("reads only the chunks a range lies in, not the whole file", async () => {
    const { get } = await uploaded(3 * mib + 10);
    await get();
    const inOneChunk = await ctx.countQueries(() => get({ Range: `bytes=${mib + 100}-${mib + 64 * 1024 + 99}` }));
    const acrossTwo = await ctx.countQueries(() => get({ Range: `bytes=${2 * mib - 100}-${2 * mib + 99}` }));
    const whole = await ctx.countQueries(() => get());
    // The whole file is four chunks (and a last look for a fifth); a range reads the chunks it lies in, and no more.
    expect(acrossTwo - inOneChunk).toBe(1);
    expect(whole - inOneChunk).toBe(4);
  });
});

describe("which bytes a Range header asks for", () => {
  it("reads each form, and what is not one range", () => {
    const etag = '"abc"';
    expect(wantedBytes(undefined, undefined, 100, etag)).toEqual({ kind: "whole" });
    expect(wantedBytes("bytes=0-0", undefined, 100, etag)).toEqual({ kind: "part", range: { start: 0, end: 0 } });
    expect(wantedBytes("BYTES = 5 - 9", undefined, 100, etag)).toEqual({ kind: "part", range: { start: 5, end: 9 } });
    expect(wantedBytes("bytes=90-", undefined, 100, etag)).toEqual({ kind: "part", range: { start: 90, end: 99 } });
    expect(wantedBytes("bytes=-10", undefined, 100, etag)).toEqual({ kind: "part", range: { start: 90, end: 99 } });
    expect(wantedBytes("bytes=100-", undefined, 100, etag)).toEqual({ kind: "unsatisfiable" });
    expect(wantedBytes("bytes=-1", undefined, 0, etag)).toEqual({ kind: "unsatisfiable" });
    expect(wantedBytes("bytes=1234567890123456-", undefined, 100, etag)).toEqual({ kind: "whole" });
    expect(wantedBytes("bytes=0-1", '"other"', 100, etag)).toEqual({ kind: "whole" });
    expect(wantedBytes("bytes=0-1", etag, 100, etag)).toEqual({ kind: "part", range: { start: 0, end: 1 } });
  });
});
