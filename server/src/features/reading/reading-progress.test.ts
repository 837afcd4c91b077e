import { and, eq } from "drizzle-orm";
import { boardPackOpens, companies, documentPageReads } from "../../db/schema";
import { readingFixtures } from "../../testing/reading-fixtures";
import { useTestContext } from "../../testing/test-context";
import { boardReadingDeniedMessage, readReceiptsOffMessage } from "./reading-progress.service";

const ctx = useTestContext();
const { as, board, paper, putAgenda, newVersion } = readingFixtures(ctx);

const readsOf = (userId: number, documentId: number) =>
  ctx.db
    .select({ version: documentPageReads.version, page: documentPageReads.page, firstAt: documentPageReads.firstAt })
    .from(documentPageReads)
    .where(and(eq(documentPageReads.userId, userId), eq(documentPageReads.documentId, documentId)))
    .orderBy(documentPageReads.version, documentPageReads.page);

describe("POST /api/documents/:id/reads", () => {
  it("records the pages of a version once each, keeping the first time (204)", async () => {
    const { ann, papers } = await board("Reads Ltd");
    expect((await as(ann).post(`/api/documents/${papers.budget}/reads`, { version: 1, pages: [1, 2, 2] })).status).toBe(204);
    const first = await readsOf(ann.id, papers.budget);
    ctx.clock.advance(60_000);
    expect((await as(ann).post(`/api/documents/${papers.budget}/reads`, { version: 1, pages: [2, 4] })).status).toBe(204);
    const after = await readsOf(ann.id, papers.budget);
    expect(after.map((row) => row.page)).toEqual([1, 2, 4]);
    expect(after[1]!.firstAt).toEqual(first[1]!.firstAt);
  });

  it("refuses a page beyond the version's (400 naming its count), a file without a count having one page", async () => {
    const { founder, ann, papers } = await board("Bounds Ltd");
    const beyond = await as(ann).post(`/api/documents/${papers.plan}/reads`, { version: 1, pages: [1, 3] });
    expect(beyond.status).toBe(400);
    expect(beyond.body.message).toBe("This version has 2 pages");
    const unknown = await paper(founder, "Letter.pdf", null);
    expect((await as(ann).post(`/api/documents/${unknown}/reads`, { version: 1, pages: [1] })).status).toBe(204);
    const second = await as(ann).post(`/api/documents/${unknown}/reads`, { version: 1, pages: [2] });
    expect(second.status).toBe(400);
    expect(second.body.message).toBe("This version has 1 page");
    expect(await readsOf(ann.id, papers.plan)).toEqual([]);
  });

  it("answers 404 for a version the paper does not have, 400 for pages that are no page numbers", async () => {
    const { ann, papers } = await board("Missing Ltd");
    expect((await as(ann).post(`/api/documents/${papers.plan}/reads`, { version: 2, pages: [1] })).status).toBe(404);
    expect((await as(ann).post(`/api/documents/${papers.plan}/reads`, { version: 1, pages: [0] })).status).toBe(400);
    expect((await as(ann).post(`/api/documents/${papers.plan}/reads`, { version: 1, pages: [] })).status).toBe(400);
  });
});

describe("GET /api/meetings/:id/reading", () => {
  it("counts the pages of each paper's latest version the caller opened, and the pack's share of pages", async () => {
    const { founder, ann, ben, meetingId, papers } = await board("Progress Ltd");
    const notes = await paper(founder, "Notes.pdf", null);
    await putAgenda(founder, meetingId, [[papers.budget], [papers.plan, notes], [papers.budget]]);
    const reading = async () => (await as(ann).get(`/api/meetings/${meetingId}/reading`)).body;
    expect(await reading()).toEqual({
      papers: [
        { documentId: papers.budget, pages: 4, pagesRead: 0 },
        { documentId: papers.plan, pages: 2, pagesRead: 0 },
        { documentId: notes, pages: null, pagesRead: 0 },
      ],
      packShare: 0,
    });
    await as(ann).post(`/api/documents/${papers.budget}/reads`, { version: 1, pages: [1, 2, 3] });
    await as(ann).post(`/api/documents/${papers.plan}/reads`, { version: 1, pages: [2] });
    await as(ann).post(`/api/documents/${notes}/reads`, { version: 1, pages: [1] });
    // Another director's reading is theirs alone.
    await as(ben).post(`/api/documents/${papers.plan}/reads`, { version: 1, pages: [1] });
    expect(await reading()).toEqual({
      papers: [
        { documentId: papers.budget, pages: 4, pagesRead: 3 },
        { documentId: papers.plan, pages: 2, pagesRead: 1 },
        { documentId: notes, pages: null, pagesRead: 1 },
      ],
      packShare: 4 / 6,
    });
    // A new version of the budget: what was read of the old one no longer counts.
    await newVersion(papers.budget, 5);
    await as(ann).post(`/api/documents/${papers.budget}/reads`, { version: 2, pages: [5] });
    expect((await reading()).papers[0]).toEqual({ documentId: papers.budget, pages: 5, pagesRead: 1 });
    expect((await reading()).packShare).toBe(2 / 7);
  });

  it("runs a fixed number of queries whatever the number of papers", async () => {
    const { founder, ann, meetingId, papers } = await board("Queries Ltd");
    const once = () => as(ann).get(`/api/meetings/${meetingId}/reading`);
    await once();
    const few = await ctx.countQueries(once);
    const more = [await paper(founder, "C.pdf", 3), await paper(founder, "D.pdf", 1), await paper(founder, "E.pdf", 9)];
    await putAgenda(founder, meetingId, [[papers.budget, papers.plan], more]);
    for (const id of more) await as(ann).post(`/api/documents/${id}/reads`, { version: 1, pages: [1] });
    // A write drops the caller's cached session: read it again first.
    await once();
    expect(await ctx.countQueries(once)).toBe(few);
  });
});

describe("POST /api/meetings/:id/reading/pack", () => {
  it("records the caller's first opening of the pack", async () => {
    const { ben, meetingId } = await board("Pack Ltd");
    expect((await as(ben).post(`/api/meetings/${meetingId}/reading/pack`)).status).toBe(204);
    expect((await as(ben).post(`/api/meetings/${meetingId}/reading/pack`)).status).toBe(204);
    const opens = await ctx.db.select().from(boardPackOpens).where(eq(boardPackOpens.meetingId, meetingId));
    expect(opens.map((open) => open.userId)).toEqual([ben.id]);
  });
});

describe("GET /api/meetings/:id/reading/board", () => {
  it("shows each participant director (no observer) the pack and papers opened, never pages or times", async () => {
    const { founder, ann, ben, meetingId, papers } = await board("Receipts Ltd");
    await as(ben).post(`/api/meetings/${meetingId}/reading/pack`);
    await as(ben).post(`/api/documents/${papers.plan}/reads`, { version: 1, pages: [2] });
    await as(ben).post(`/api/documents/${papers.budget}/reads`, { version: 1, pages: [1] });
    const response = await as(founder).get(`/api/meetings/${meetingId}/reading/board`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { userId: ann.id, name: "Ann Author", packOpened: false, opened: [] },
      { userId: ben.id, name: "Ben Board", packOpened: true, opened: [papers.budget, papers.plan] },
    ]);
  });

  it("lists every member but observers when the meeting names no participants", async () => {
    const { founder, admin, ann, ben, meetingId } = await board("Everyone Ltd", { participants: "none" });
    const response = await as(admin).get(`/api/meetings/${meetingId}/reading/board`);
    expect(response.body.map((row: { userId: number }) => row.userId)).toEqual([admin.id, ann.id, ben.id, founder.id]);
  });

  it("is for founders, admins and the meeting's creator only (403 for others)", async () => {
    const { founder, admin, ann, ben, oscar, meetingId } = await board("Who Ltd");
    for (const user of [founder, admin, ann]) expect((await as(user).get(`/api/meetings/${meetingId}/reading/board`)).status).toBe(200);
    for (const user of [ben, oscar]) {
      const refused = await as(user).get(`/api/meetings/${meetingId}/reading/board`);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ message: boardReadingDeniedMessage });
    }
  });

  it("answers 403 saying so while the company has read receipts off", async () => {
    const { founder, company, meetingId } = await board("Private Ltd");
    await ctx.db.update(companies).set({ readReceipts: false }).where(eq(companies.id, company.id));
    const refused = await as(founder).get(`/api/meetings/${meetingId}/reading/board`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: readReceiptsOffMessage });
  });

  it("runs a fixed number of queries whatever the number of directors and papers", async () => {
    const { founder, member, meetingId, papers } = await board("Board Queries Ltd", { participants: "none" });
    const once = () => as(founder).get(`/api/meetings/${meetingId}/reading/board`);
    await once();
    const few = await ctx.countQueries(once);
    for (let index = 0; index < 3; index += 1) {
      const director = await member("member");
      await as(director).post(`/api/documents/${papers.plan}/reads`, { version: 1, pages: [1] });
      await as(director).post(`/api/meetings/${meetingId}/reading/pack`);
    }
    await putAgenda(founder, meetingId, [[papers.budget, papers.plan], [await paper(founder, "More.pdf", 2)]]);
    await once();
    expect(await ctx.countQueries(once)).toBe(few);
  });
});
