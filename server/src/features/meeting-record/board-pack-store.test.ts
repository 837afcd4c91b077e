import { eq } from "drizzle-orm";
import { boardPacks, fileChunks, fileSweep, meetings as meetings_ } from "../../db/schema";
import { sweepFiles } from "../documents/documents.service";
import { packFixtures } from "../../testing/board-pack-fixtures";
import { packWorkerFixtures, restoreLimitsAfterEach } from "../../testing/board-pack-worker-fixtures";
import { useTestContext } from "../../testing/test-context";
import { pdfJobCounts } from "./pdf-pool";

const ctx = useTestContext();
const { putAgenda, download } = packFixtures(ctx);
const { meetings } = packWorkerFixtures(ctx);
restoreLimitsAfterEach();

describe("the board pack, built off the main thread", () => {
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
});
