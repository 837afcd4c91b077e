import { PDFDocument } from "@cantoo/pdf-lib";
import { documentFiles, documents } from "../../db/schema";
import { packFixtures, paperPdf, readPack } from "../../testing/board-pack-fixtures";
import { eventually, heavyPdf, packWorkerFixtures, send, restoreLimitsAfterEach } from "../../testing/board-pack-worker-fixtures";
import { useTestContext } from "../../testing/test-context";
import { packQueue } from "./board-pack.jobs";
import { packLimits } from "./board-pack.limits";
import * as packData from "./board-pack.data";
import { tooLargeNote } from "./board-pack.pages";
import * as pdfPool from "./pdf-pool";
import { PdfJobFailed } from "./pdf-jobs";
import { pdfJobCounts, pdfWorkLimits } from "./pdf-pool";

const ctx = useTestContext();
const { api, upload, schedule, putAgenda, download } = packFixtures(ctx);
const { meetings, storedPacks } = packWorkerFixtures(ctx);
restoreLimitsAfterEach();

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
});
