import { eq } from "drizzle-orm";
import { companies, documents } from "../../db/schema";
import { packFixtures, readPack, type ItemInput } from "../../testing/board-pack-fixtures";
import { watchReads } from "../../testing/paper-reads";
import { samplePng } from "../../testing/sample-files";
import { useTestContext } from "../../testing/test-context";
import { packLimits } from "./board-pack.limits";

const ctx = useTestContext();
const { api, schedule, putAgenda, download, setup } = packFixtures(ctx);
const defaultLimits = { ...packLimits };

afterEach(() => {
  vi.restoreAllMocks();
  Object.assign(packLimits, defaultLimits);
});

describe("GET /api/meetings/:id/board-pack.pdf", () => {
  it("is the cover, the agenda with each item's page, then each item's section and papers, with one bookmark per item", async () => {
    const { founder, company, meetingId } = await setup();
    await ctx.db
      .update(companies)
      .set({ logoUrl: `data:image/png;base64,${samplePng().toString("base64")}` })
      .where(eq(companies.id, company.id));

    const response = await download(founder, meetingId);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["content-disposition"]).toContain('attachment; filename="Q4 Board Meeting - board pack.pdf"');
    expect(response.headers["cache-control"]).toBe("private, no-cache");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers.etag).toMatch(/^"bp-[\w-]+"$/);

    const { pages, bookmarks } = await readPack(response.body as Buffer);
    // Cover, agenda, item 1 (its section and Paper A's 3 pages), item 2 (section, Paper B's 2 pages, the image,
    // restricted.pdf's page), item 3 (its section).
    expect(pages).toHaveLength(1 + 1 + (1 + 3) + (1 + 2 + 1 + 1) + 1);
    const sectionPages = [3, 7, 12];

    const cover = pages[0]!;
    expect(cover.hasImage).toBe(true);
    for (const text of [
      "Zenith Holdings",
      "BOARD PACK",
      "Q4 Board Meeting",
      "Tuesday, 1 December 2026, 10:00–12:00 UTC",
      "Head office, London",
    ]) {
      expect(cover.text).toContain(text);
    }
    expect(cover.text).toContain("Ann Presenter");
    expect(cover.text).toContain("Obi Observer");

    const agenda = pages[1]!;
    expect(agenda.text).toContain("Agenda");
    expect(agenda.text).toContain("Zoë — ?? ?");
    expect(agenda.text).toContain("10:00–10:15 UTC · 15 min");
    expect(agenda.text).toContain("10:15–10:45 UTC · 30 min");
    expect(agenda.text).toContain("Presented by Ann Presenter");
    expect(agenda.text).toContain("Papers: Paper A.pdf, notes.txt, animation.gif");
    expect(agenda.rightColumn).toEqual(sectionPages.map(String));

    expect(bookmarks).toEqual([
      { title: "Zoë — 会議 ✓", page: 3 },
      { title: "Finance", page: 7 },
      { title: "Any other business", page: 12 },
    ]);
    sectionPages.forEach((page, index) => expect(pages[page - 1]!.text).toContain(`ITEM ${index + 1} OF 3`));

    const first = pages[2]!.text;
    expect(first).toContain("Presented by Ann Presenter");
    expect(first).toContain("Approval of the minutes.");
    expect(first).toMatch(/Paper A\.pdf .*3 pages: pages 4–6/);
    expect(first).toMatch(/notes\.txt .*attachment not merged — download from the library/);
    expect(first).toMatch(/animation\.gif .*attachment not merged — download from the library/);
    [1, 2, 3].forEach((n) => expect(pages[2 + n]!.text).toContain(`Paper A page ${n}`));

    const second = pages[6]!.text;
    expect(second).toMatch(/broken\.pdf .*could not be included: the file is encrypted or damaged/);
    expect(second).toMatch(/locked\.pdf .*could not be included: the file is password-protected/);
    expect(second).toMatch(/Paper B\.pdf .*2 pages: pages 8–9/);
    expect(second).toMatch(/chart\.png .*image: page 10/);
    expect(second).toMatch(/restricted\.pdf .*1 page: page 11/);
    expect(pages[7]!.text).toContain("Paper B page 1");
    expect(pages[8]!.text).toContain("Paper B page 2");
    expect(pages[9]!.hasImage).toBe(true);
    expect(pages[9]!.text).toContain("chart.png");
    // Encrypted only against editing (an empty user password): merged like any other paper.
    expect(pages[10]!.text).toContain("Restricted page 1");
    expect(pages.map((page) => page.text).join("\n")).not.toMatch(/Locked page/);

    expect(pages[11]!.text).toContain("No papers for this item.");
    pages.forEach((page, index) => expect(page.text).toContain(`Page ${index + 1} of ${pages.length}`));
  });

  it("answers 304 to its ETag without building the pack, and a new tag when the agenda or a paper changes", async () => {
    const { founder, meetingId, papers, items } = await setup();
    const first = await download(founder, meetingId);
    const etag = first.headers.etag!;
    const again = await download(founder, meetingId);
    expect(again.headers.etag).toBe(etag);
    // A strong tag: the same agenda and papers give the very same bytes.
    expect(Buffer.compare(again.body as Buffer, first.body as Buffer)).toBe(0);

    const reads = watchReads();
    const cached = await download(founder, meetingId, etag);
    expect(cached.status).toBe(304);
    expect(cached.body).toHaveLength(0);
    expect(cached.headers.etag).toBe(etag);
    expect(reads.ids()).toEqual([]);

    await putAgenda(founder, meetingId, [
      { id: items[1]!.id, title: "Finance", durationMinutes: 30, documentIds: [papers.b] },
      { id: items[0]!.id, title: "Zoë — 会議 ✓", durationMinutes: 15, documentIds: [papers.a] },
    ]);
    const reordered = await download(founder, meetingId, etag);
    expect(reordered.status).toBe(200);
    expect(reads.ids()).toEqual([papers.b, papers.a]);
    const reorderedTag = reordered.headers.etag!;
    expect(reorderedTag).not.toBe(etag);
    expect((await readPack(reordered.body as Buffer)).bookmarks.map((entry) => entry.title)).toEqual(["Finance", "Zoë — 会議 ✓"]);

    await ctx.db.update(documents).set({ name: "Paper B (revised).pdf" }).where(eq(documents.id, papers.b));
    const renamed = await download(founder, meetingId, reorderedTag);
    expect(renamed.status).toBe(200);
    expect(renamed.headers.etag).not.toBe(reorderedTag);
    expect((await readPack(renamed.body as Buffer)).pages[2]!.text).toContain("Paper B (revised).pdf");
  });

  it("costs the same number of queries to revalidate whatever the length of the agenda", async () => {
    const { founder, meetingId, papers } = await setup();
    const cost = async (items: ItemInput[]) => {
      await putAgenda(founder, meetingId, items);
      const etag = (await download(founder, meetingId)).headers.etag!;
      return ctx.countQueries(async () => expect((await download(founder, meetingId, etag)).status).toBe(304));
    };
    const item = (n: number): ItemInput => ({ title: `Item ${n}`, durationMinutes: 5, documentIds: [papers.notes, papers.a] });
    const one = await cost([item(1)]);
    const many = await cost(Array.from({ length: 12 }, (_, n) => item(n + 1)));
    expect(many).toBe(one);
  });

  it("is read by every member, observers too; another company's meeting, a draft and an unknown id are 404", async () => {
    const { founder, obi, meetingId } = await setup();
    const observed = await download(obi, meetingId);
    expect(observed.status).toBe(200);
    expect((await readPack(observed.body as Buffer)).pages).toHaveLength(12);

    const stranger = (await ctx.board("Elsewhere Ltd")).founder;
    expect((await download(stranger, meetingId)).status).toBe(404);
    const draft = await api()
      .post("/api/new-meeting")
      .set("Authorization", founder.bearer)
      .send({ title: "Draft", date: new Date(ctx.clock.now().getTime() + 86_400_000).toISOString() });
    expect(draft.status).toBe(201);
    expect((await download(founder, draft.body.id as number)).status).toBe(404);
    expect((await download(founder, 999_999)).status).toBe(404);
  });

  it("is a cover and an agenda page without bookmarks for a meeting with no items, named after its title", async () => {
    const { founder } = await ctx.board("Quiet Co", { firstName: "Fay", lastName: "Founder" });
    const meetingId = await schedule(founder, [], "Strategy — 2027 / Q1");
    const response = await download(founder, meetingId);
    expect(response.status).toBe(200);
    expect(response.headers["content-disposition"]).toBe(
      `attachment; filename="Strategy _ 2027 / Q1 - board pack.pdf"; filename*=UTF-8''Strategy%20%E2%80%94%202027%20%2F%20Q1%20-%20board%20pack.pdf`,
    );
    const { pages, bookmarks } = await readPack(response.body as Buffer);
    expect(pages).toHaveLength(2);
    expect(pages[0]!.text).toContain("No participants listed");
    expect(pages[1]!.text).toContain("This meeting has no agenda items yet.");
    expect(bookmarks).toEqual([]);
  });
});
