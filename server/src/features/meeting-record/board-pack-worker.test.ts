import type { AddressInfo } from "node:net";
import { PDFDocument } from "@cantoo/pdf-lib";
import { eq, inArray } from "drizzle-orm";
import { boardPacks, documentFiles, documents, fileChunks, fileSweep, meetings as meetings_ } from "../../db/schema";
import { sweepFiles } from "../documents/documents.service";
import { packFixtures, paperPdf, readPack } from "../../testing/board-pack-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import * as jobs from "./board-pack.jobs";
import { packBusyMessage, packLimits, packQueue } from "./board-pack.jobs";
import * as packData from "./board-pack.data";
import { tooLargeNote } from "./board-pack.pages";
import * as pdfPool from "./pdf-pool";
import { PdfJobAbandoned, PdfJobFailed, pdfJobCounts, pdfWorkLimits } from "./pdf-pool";

const ctx = useTestContext();
const { api, upload, schedule, putAgenda, download } = packFixtures(ctx);
const defaultLimits = { ...packLimits };
const defaultWorkLimits = { ...pdfWorkLimits };

afterEach(() => {
  vi.restoreAllMocks();
  Object.assign(packLimits, defaultLimits);
  Object.assign(pdfWorkLimits, defaultWorkLimits);
});

/**
 * A one-page PDF whose page's resources hold an array of `count` numbers: a few megabytes on disk, far more once
 * parsed (each number an object of its own), so a worker with a small heap dies reading it.
 */
function heavyPdf(count: number): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Heavy 4 0 R >> >>",
    `[${"1 ".repeat(count)}]`,
  ];
  let out = "%PDF-1.7\n";
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** A company with a meeting whose one item has a small paper, and further members each with a meeting of their own. */
async function meetings(count: number) {
  const { founder, member } = await ctx.board("Queue Ltd", { firstName: "Fay", lastName: "Founder" });
  const paper = await upload(founder, "Paper.pdf", "application/pdf", await paperPdf("Paper", 1));
  const people: { user: SignedUp; meetingId: number }[] = [];
  for (let n = 0; n < count; n += 1) {
    const user = n === 0 ? founder : await member("member", { firstName: `Member${n}`, lastName: "Board" });
    const meetingId = await schedule(founder, [], `Meeting ${n + 1}`);
    await putAgenda(founder, meetingId, [{ title: "Only item", durationMinutes: 10, documentIds: [paper] }]);
    people.push({ user, meetingId });
  }
  return { founder, people, paper };
}

/** Companies of their own, each with one member, a small paper and a meeting with it on its agenda. */
async function boards(count: number) {
  const people: { user: SignedUp; meetingId: number }[] = [];
  for (let n = 0; n < count; n += 1) {
    const { founder } = await ctx.board(`Board ${n + 1} Ltd`, { firstName: "Fay", lastName: `Founder${n}` });
    const paper = await upload(founder, "Paper.pdf", "application/pdf", await paperPdf("Paper", 1));
    const meetingId = await schedule(founder, []);
    await putAgenda(founder, meetingId, [{ title: "Only item", durationMinutes: 10, documentIds: [paper] }]);
    people.push({ user: founder, meetingId });
  }
  return people;
}

const storedPacks = (meetingId: number) => ctx.db.select().from(boardPacks).where(eq(boardPacks.meetingId, meetingId));

/** Holds every read of a paper's bytes (on the main thread) until released: the builds stay under way. */
function holdReads() {
  const read = packData.readPaperBytes;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const started: number[] = [];
  vi.spyOn(packData, "readPaperBytes").mockImplementation(async (...args) => {
    started.push(args[1]);
    await released;
    return read(...args);
  });
  return { started, release };
}

/** Waits for a condition (a new worker loads first: longer than a request). */
const eventually = (check: () => void) => vi.waitFor(check, { timeout: 20_000, interval: 20 });

/** Sends a request now (supertest sends only once awaited). */
const send = <T>(request: PromiseLike<T>) => Promise.resolve().then(() => request);

describe("the board pack, built off the main thread", () => {
  it("lists a paper that takes its worker past the memory cap as too large to include, and the server answers meanwhile", async () => {
    const { founder, company } = await ctx.board("Heavy Ltd", { firstName: "Fay", lastName: "Founder" });
    const meetingId = await schedule(founder, []);
    const small = await upload(founder, "Small.pdf", "application/pdf", await paperPdf("Small", 2));
    // Written directly: what an upload's checks would refuse can still be in the library from before them.
    const bytes = heavyPdf(3_000_000);
    const [heavy] = await ctx.db
      .insert(documents)
      .values({ companyId: company.id, name: "Heavy.pdf", fileType: "application/pdf", fileSize: bytes.length, category: "Other" })
      .returning({ id: documents.id });
    await ctx.db.insert(documentFiles).values({ documentId: heavy!.id, bytes });
    await putAgenda(founder, meetingId, [{ title: "Reports", durationMinutes: 10, documentIds: [small, heavy!.id] }]);

    pdfWorkLimits.maxOldGenerationSizeMb = 64;
    pdfWorkLimits.maxYoungGenerationSizeMb = 8;
    const read = packData.readPaperBytes;
    let heavyHandedOver = false;
    vi.spyOn(packData, "readPaperBytes").mockImplementation(async (...args) => {
      const result = await read(...args);
      if (args[1] === heavy!.id) heavyHandedOver = true;
      return result;
    });
    const jobsBefore = pdfJobCounts.started;
    let packDone = false;
    const pack = send(download(founder, meetingId)).then((response) => ((packDone = true), response));

    // While the worker chokes on the heavy paper (and is replaced), requests are answered.
    await eventually(() => expect(heavyHandedOver).toBe(true));
    const me = await api().get("/api/auth/user").set("Authorization", founder.bearer);
    expect(me.status).toBe(200);
    expect(packDone).toBe(false);

    const response = await pack;
    expect(response.status).toBe(200);
    const { pages } = await readPack(response.body as Buffer);
    // Cover, agenda, the section, Small's two pages.
    expect(pages).toHaveLength(5);
    expect(pages[2]!.text).toContain(`Heavy.pdf ${tooLargeNote}`);
    expect(pages[2]!.text).toMatch(/Small\.pdf .*2 pages: pages 4–5/);
    // The first build died on the heavy paper; the second left it out.
    expect(pdfJobCounts.started - jobsBefore).toBe(2);
    // A paper past the memory cap is past it on any machine: the pack is kept.
    expect(await storedPacks(meetingId)).toEqual([expect.objectContaining({ etag: response.headers.etag })]);
  }, 60_000);

  it("builds the pack of a 2,000-page paper within the worker's default caps", async () => {
    const { founder } = await ctx.board("Long Ltd", { firstName: "Fay", lastName: "Founder" });
    const meetingId = await schedule(founder, []);
    const long = await upload(founder, "Long.pdf", "application/pdf", await paperPdf("Long", 2_000));
    await putAgenda(founder, meetingId, [{ title: "Annual report", durationMinutes: 60, documentIds: [long] }]);
    const response = await download(founder, meetingId);
    expect(response.status).toBe(200);
    const pack = await PDFDocument.load(response.body as Buffer, { updateMetadata: false });
    // Cover, agenda, the section, the paper.
    expect(pack.getPageCount()).toBe(3 + 2_000);
  }, 120_000);

  it("does not count the time a paper takes to come from storage against the worker's time cap", async () => {
    const { people } = await meetings(1);
    const { user, meetingId } = people[0]!;
    pdfWorkLimits.timeoutMs = 2_000;
    const read = packData.readPaperBytes;
    vi.spyOn(packData, "readPaperBytes").mockImplementation(async (...args) => {
      // Slow storage: the paper comes well after the cap would have passed, had the wait counted.
      await new Promise((resolve) => setTimeout(resolve, 2.5 * pdfWorkLimits.timeoutMs));
      return read(...args);
    });
    const before = pdfJobCounts.started;
    const response = await download(user, meetingId);
    expect(response.status).toBe(200);
    const { pages } = await readPack(response.body as Buffer);
    // Cover, agenda, the section, the paper.
    expect(pages).toHaveLength(4);
    expect(pages[2]!.text).not.toContain(tooLargeNote);
    expect(pdfJobCounts.started - before).toBe(1);
  }, 60_000);

  it("lists a paper merged while its worker passes the time cap as too large to include, but keeps no such pack", async () => {
    const { people } = await meetings(1);
    const { user, meetingId } = people[0]!;
    const run = pdfPool.runPdfJob;
    let first = true;
    // The first build passes its time cap while merging the paper (a busy machine may do that to an honest paper).
    vi.spyOn(pdfPool, "runPdfJob").mockImplementation((job, options) => {
      if (!first || job.kind !== "pack") return run(job, options);
      first = false;
      const paperId = job.data.items[0]!.papers[0]!.id;
      options?.onMessage?.({ type: "paper", request: 1, paperId, room: packLimits.maxPaperBytes }, () => undefined);
      return Promise.reject(new PdfJobFailed("time"));
    });
    const response = await download(user, meetingId);
    expect(response.status).toBe(200);
    const { pages } = await readPack(response.body as Buffer);
    expect(pages).toHaveLength(3);
    expect(pages[2]!.text).toContain(`Paper.pdf ${tooLargeNote}`);
    expect(await storedPacks(meetingId)).toEqual([]);

    // Asked again, it is built again, this time with the paper, and kept.
    const again = await download(user, meetingId);
    expect(again.status).toBe(200);
    expect(again.headers.etag).toBe(response.headers.etag);
    expect((await readPack(again.body as Buffer)).pages).toHaveLength(4);
    expect(await storedPacks(meetingId)).toEqual([expect.objectContaining({ etag: again.headers.etag })]);
  }, 60_000);

  it("serves a pack past the size kept as built, without keeping it", async () => {
    const { people } = await meetings(1);
    const { user, meetingId } = people[0]!;
    packLimits.maxStoredPackBytes = 1_000;
    const before = pdfJobCounts.started;
    const first = await download(user, meetingId);
    expect(first.status).toBe(200);
    expect((first.body as Buffer).length).toBeGreaterThan(packLimits.maxStoredPackBytes);
    expect(await storedPacks(meetingId)).toEqual([]);
    const again = await download(user, meetingId);
    expect(again.status).toBe(200);
    expect(Buffer.compare(again.body as Buffer, first.body as Buffer)).toBe(0);
    expect(pdfJobCounts.started - before).toBe(2);
  }, 60_000);

  it("answers 503 with Retry-After when a paper cannot be read from storage, and stores nothing", async () => {
    const { people } = await meetings(1);
    const { user, meetingId } = people[0]!;
    const failing = vi.spyOn(packData, "readPaperBytes").mockRejectedValue(new Error("storage unreachable"));
    const response = await download(user, meetingId);
    expect(response.status).toBe(503);
    expect(response.headers["retry-after"]).toBe(String(packLimits.failureMemorySeconds));
    expect(response.headers.etag ?? "").not.toContain("bp-");
    expect(JSON.parse(String(response.body))).toEqual({ message: "The board pack could not be built. Try again later." });
    expect(await storedPacks(meetingId)).toEqual([]);

    // Asked again soon, it is answered 503 at once, without a build of its own.
    const before = pdfJobCounts.started;
    const start = ctx.clock.now();
    try {
      ctx.clock.set(new Date(start.getTime() + 20_000));
      const soon = await download(user, meetingId);
      expect(soon.status).toBe(503);
      expect(soon.headers["retry-after"]).toBe(String(packLimits.failureMemorySeconds - 20));
      expect(JSON.parse(String(soon.body))).toEqual({ message: "The board pack could not be built. Try again later." });
      expect(pdfJobCounts.started - before).toBe(0);
      expect(failing).toHaveBeenCalledTimes(1);

      // Once that while has passed, it is built again.
      failing.mockRestore();
      ctx.clock.set(new Date(start.getTime() + packLimits.failureMemorySeconds * 1000));
      expect((await download(user, meetingId)).status).toBe(200);
      expect(pdfJobCounts.started - before).toBe(1);
    } finally {
      ctx.clock.set(start);
    }
  }, 60_000);

  it("answers 503 when storage does not give a paper within its time, rather than waiting on it", async () => {
    const { people } = await meetings(1);
    const { user, meetingId } = people[0]!;
    packLimits.paperReadMs = 500;
    // Storage that never answers (the worker's own time cap stands still while it waits).
    vi.spyOn(packData, "readPaperBytes").mockReturnValue(new Promise(() => undefined));
    const response = await download(user, meetingId);
    expect(response.status).toBe(503);
    expect(response.headers["retry-after"]).toBe(String(packLimits.failureMemorySeconds));
    expect(JSON.parse(String(response.body))).toEqual({ message: "The board pack could not be built. Try again later." });
    expect(await storedPacks(meetingId)).toEqual([]);
    expect(packQueue()).toEqual({ building: 0, waiting: 0 });
  }, 60_000);

  it("serves a pack built once from the store, and drops a meeting's older pack when a new one is stored", async () => {
    const { people, paper } = await meetings(1);
    const { user, meetingId } = people[0]!;
    const before = pdfJobCounts.started;
    const first = await download(user, meetingId);
    expect(first.status).toBe(200);
    expect(pdfJobCounts.started - before).toBe(1);

    const again = await download(user, meetingId);
    expect(again.status).toBe(200);
    expect(again.headers["content-type"]).toBe("application/pdf");
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(Buffer.compare(again.body as Buffer, first.body as Buffer)).toBe(0);
    expect(pdfJobCounts.started - before).toBe(1);

    const [stored] = await ctx.db.select().from(boardPacks).where(eq(boardPacks.meetingId, meetingId));
    expect(stored!.etag).toBe(first.headers.etag);
    await putAgenda(user, meetingId, [{ title: "Renamed item", durationMinutes: 10, documentIds: [paper] }]);
    const changed = await download(user, meetingId);
    expect(changed.status).toBe(200);
    expect(pdfJobCounts.started - before).toBe(2);
    const rows = await ctx.db.select().from(boardPacks).where(eq(boardPacks.meetingId, meetingId));
    expect(rows.map((row) => row.etag)).toEqual([changed.headers.etag]);
    expect(await ctx.db.select().from(fileChunks).where(eq(fileChunks.storageKey, stored!.storageKey))).toEqual([]);
  }, 60_000);

  it("leaves a stored pack's bytes to the sweep when its meeting goes", async () => {
    const { people } = await meetings(1);
    const { user, meetingId } = people[0]!;
    expect((await download(user, meetingId)).status).toBe(200);
    const [stored] = await ctx.db.select().from(boardPacks).where(eq(boardPacks.meetingId, meetingId));
    await ctx.db.delete(meetings_).where(eq(meetings_.documentId, meetingId));
    expect(await ctx.db.select().from(boardPacks).where(eq(boardPacks.meetingId, meetingId))).toEqual([]);
    expect(await ctx.db.select({ key: fileSweep.storageKey }).from(fileSweep).where(eq(fileSweep.storageKey, stored!.storageKey))).toEqual([
      { key: stored!.storageKey },
    ]);
    // The database's own time marks it due: the sweep runs once the app's clock has reached it.
    const start = ctx.clock.now();
    ctx.clock.set(new Date(Date.now() + 1000));
    try {
      await sweepFiles(ctx.deps);
    } finally {
      ctx.clock.set(start);
    }
    expect(await ctx.db.select({ seq: fileChunks.seq }).from(fileChunks).where(eq(fileChunks.storageKey, stored!.storageKey))).toEqual([]);
  }, 60_000);

  it("shares one build between requests for the same pack", async () => {
    const { people } = await meetings(1);
    const { user, meetingId } = people[0]!;
    const before = pdfJobCounts.started;
    const responses = await Promise.all([1, 2, 3].map(() => send(download(user, meetingId))));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(pdfJobCounts.started - before).toBe(1);
  }, 60_000);

  it("refuses a user's second build while the first is under way, with Retry-After", async () => {
    const { people } = await meetings(2);
    const [first, second] = people;
    const [elsewhere] = await boards(1);
    const held = holdReads();
    const running = send(download(first!.user, first!.meetingId));
    await eventually(() => expect(held.started).toHaveLength(1));

    const refused = await download(first!.user, second!.meetingId);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe(String(packLimits.retryAfterSeconds));
    expect(refused.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(String(refused.body))).toEqual({ message: packBusyMessage });
    // A member of another company may.
    const other = send(download(elsewhere!.user, elsewhere!.meetingId));
    await eventually(() => expect(held.started).toHaveLength(2));
    held.release();
    expect((await running).status).toBe(200);
    expect((await other).status).toBe(200);
    // Once it is built, the user may ask for another.
    expect((await download(first!.user, second!.meetingId)).status).toBe(200);
  }, 60_000);

  it("runs at most the builds allowed at once, queues a few behind them and refuses past the queue", async () => {
    packLimits.concurrentBuilds = 2;
    packLimits.queuedBuilds = 1;
    const people = await boards(4);
    const held = holdReads();
    const before = pdfJobCounts.started;
    const admitted = people.slice(0, 3).map(({ user, meetingId }) => send(download(user, meetingId)));
    await eventually(() => expect(packQueue()).toEqual({ building: 2, waiting: 1 }));
    await eventually(() => expect(held.started).toHaveLength(2));

    const last = people[3]!;
    const refused = await download(last.user, last.meetingId);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBeDefined();

    held.release();
    expect((await Promise.all(admitted)).map((response) => response.status)).toEqual([200, 200, 200]);
    expect(pdfJobCounts.started - before).toBe(3);
    expect(packQueue()).toEqual({ building: 0, waiting: 0 });
  }, 60_000);

  it("builds one pack of a company at a time, queues a few of its others and refuses past them", async () => {
    packLimits.concurrentBuilds = 2;
    packLimits.queuedBuildsPerCompany = 1;
    const { people } = await meetings(3);
    const [elsewhere] = await boards(1);
    const held = holdReads();
    const before = pdfJobCounts.started;
    const first = send(download(people[0]!.user, people[0]!.meetingId));
    await eventually(() => expect(held.started).toHaveLength(1));
    // A place is free, but the company has a build under way: this one waits.
    const second = send(download(people[1]!.user, people[1]!.meetingId));
    await eventually(() => expect(packQueue()).toEqual({ building: 1, waiting: 1 }));

    const refused = await download(people[2]!.user, people[2]!.meetingId);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe(String(packLimits.retryAfterSeconds));
    expect(JSON.parse(String(refused.body))).toEqual({ message: packBusyMessage });

    // Another company's pack takes the free place at once.
    const other = send(download(elsewhere!.user, elsewhere!.meetingId));
    await eventually(() => expect(packQueue()).toEqual({ building: 2, waiting: 1 }));
    await eventually(() => expect(held.started).toHaveLength(2));

    held.release();
    expect((await Promise.all([first, second, other])).map((response) => response.status)).toEqual([200, 200, 200]);
    expect(pdfJobCounts.started - before).toBe(3);
    expect(packQueue()).toEqual({ building: 0, waiting: 0 });
  }, 60_000);

  it("starts no build for a client that left while the pack's data was read", async () => {
    const { people } = await meetings(1);
    const { user, meetingId } = people[0]!;
    const server = ctx.app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const closed: Promise<void>[] = [];
    server.on("connection", (socket) => closed.push(new Promise((resolve) => socket.once("close", () => resolve()))));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const readData = packData.readPackData;
      let releaseData!: () => void;
      const dataHeld = new Promise<void>((resolve) => (releaseData = resolve));
      let reading = false;
      vi.spyOn(packData, "readPackData").mockImplementation(async (...args) => {
        reading = true;
        await dataHeld;
        return readData(...args);
      });
      const packFor = jobs.boardPackFor;
      const builds: Promise<unknown>[] = [];
      vi.spyOn(jobs, "boardPackFor").mockImplementation((...args) => {
        const build = packFor(...args);
        builds.push(build.catch((error: unknown) => error));
        return build;
      });
      const before = pdfJobCounts.started;
      const controller = new AbortController();
      const response = fetch(`${base}/api/meetings/${meetingId}/board-pack.pdf`, {
        headers: { authorization: user.bearer },
        signal: controller.signal,
      }).catch(() => "left");
      await eventually(() => expect(reading).toBe(true));
      controller.abort();
      expect(await response).toBe("left");
      // The server has seen the client go before the data comes.
      await eventually(() => expect(closed).toHaveLength(1));
      await closed[0];
      releaseData();

      await eventually(() => expect(builds).toHaveLength(1));
      expect(await builds[0]).toBeInstanceOf(PdfJobAbandoned);
      expect(pdfJobCounts.started - before).toBe(0);
      expect(packQueue()).toEqual({ building: 0, waiting: 0 });
      expect(await storedPacks(meetingId)).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);

  it("drops the build of a client that leaves, whether it was under way or waiting", async () => {
    packLimits.concurrentBuilds = 1;
    const { people } = await meetings(2);
    const server = ctx.app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const held = holdReads();
      const before = pdfJobCounts.started;
      const ask = ({ user, meetingId }: (typeof people)[number]) => {
        const controller = new AbortController();
        const response = fetch(`${base}/api/meetings/${meetingId}/board-pack.pdf`, {
          headers: { authorization: user.bearer },
          signal: controller.signal,
        }).catch(() => "left");
        return { abort: () => controller.abort(), response };
      };
      // One after the other: the first under way, the second waiting.
      const leave = [ask(people[0]!)];
      await eventually(() => expect(packQueue()).toEqual({ building: 1, waiting: 0 }));
      leave.push(ask(people[1]!));
      await eventually(() => expect(packQueue()).toEqual({ building: 1, waiting: 1 }));
      await eventually(() => expect(held.started).toEqual([expect.any(Number)]));

      // The waiting one leaves: taken from the queue.
      leave[1]!.abort();
      await eventually(() => expect(packQueue()).toEqual({ building: 1, waiting: 0 }));
      // The one under way leaves: its worker is ended.
      leave[0]!.abort();
      await eventually(() => expect(packQueue()).toEqual({ building: 0, waiting: 0 }));
      held.release();
      expect(await Promise.all(leave.map((request) => request.response))).toEqual(["left", "left"]);
      expect(pdfJobCounts.started - before).toBe(1);
      const ids = people.map(({ meetingId }) => meetingId);
      expect(await ctx.db.select().from(boardPacks).where(inArray(boardPacks.meetingId, ids))).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});
