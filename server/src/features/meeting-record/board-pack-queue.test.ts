import type { AddressInfo } from "node:net";
import { inArray } from "drizzle-orm";
import { boardPacks } from "../../db/schema";
import { packFixtures } from "../../testing/board-pack-fixtures";
import { eventually, packWorkerFixtures, send, restoreLimitsAfterEach } from "../../testing/board-pack-worker-fixtures";
import { holdReads } from "../../testing/paper-reads";
import { useTestContext } from "../../testing/test-context";
import * as jobs from "./board-pack.jobs";
import { packQueue } from "./board-pack.jobs";
import { packBusyMessage, packLimits } from "./board-pack.limits";
import * as packData from "./board-pack.data";
import { PdfJobAbandoned } from "./pdf-jobs";
import { pdfJobCounts } from "./pdf-pool";

const ctx = useTestContext();
const { download } = packFixtures(ctx);
const { meetings, boards, storedPacks } = packWorkerFixtures(ctx);
restoreLimitsAfterEach();

describe("the board pack, built off the main thread", () => {
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
