import { concatTransformationMatrix, PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { eq, inArray } from "drizzle-orm";
import { boardPacks, documentFiles, documents } from "../../db/schema";
import { packFixtures, readPack } from "../../testing/board-pack-fixtures";
import { watchReads } from "../../testing/paper-reads";
import { useTestContext } from "../../testing/test-context";
import { packLimits } from "./board-pack.limits";
import { sizeLimitNote } from "./board-pack.pages";

const ctx = useTestContext();
const { upload, schedule, putAgenda, download, setup } = packFixtures(ctx);
const defaultLimits = { ...packLimits };

afterEach(() => {
  vi.restoreAllMocks();
  Object.assign(packLimits, defaultLimits);
});

describe("GET /api/meetings/:id/board-pack.pdf", () => {
  it("spreads a long agenda and a long section over pages, and every page number it prints stays right", async () => {
    const { founder, company } = await ctx.board("Longform Ltd", { firstName: "Fay", lastName: "Founder" });
    const meetingId = await schedule(founder, [], "Annual general meeting");
    // Files stored whole in their row (as before chunked storage), written directly: many papers, quickly.
    const notes = await ctx.db
      .insert(documents)
      .values(
        Array.from({ length: 44 }, (_, n) => ({
          companyId: company.id,
          name: `Report ${n + 1}.txt`,
          fileType: "text/plain",
          fileSize: 6,
          category: "Other",
        })),
      )
      .returning({ id: documents.id });
    await ctx.db.insert(documentFiles).values(notes.map(({ id }) => ({ documentId: id, bytes: Buffer.from("report") })));
    // A paper whose content leaves a transformation in force: the footer drawn after it must not be moved.
    const scaledPdf = await PDFDocument.create();
    const font = await scaledPdf.embedFont(StandardFonts.Helvetica);
    const scaledPage = scaledPdf.addPage();
    scaledPage.pushOperators(concatTransformationMatrix(0.5, 0, 0, 0.5, 0, 0));
    scaledPage.drawText("Scaled page 1", { x: 144, y: 1400, size: 32, font });
    const scaled = await upload(founder, "scaled.pdf", "application/pdf", Buffer.from(await scaledPdf.save()));
    const description = Array.from({ length: 150 }, (_, n) => `word${n}`).join(" ");
    await putAgenda(founder, meetingId, [
      { title: "Reports", durationMinutes: 60, description, documentIds: [...notes.map(({ id }) => id), scaled] },
      ...Array.from({ length: 29 }, (_, n) => ({
        title: `Item ${n + 2}: a title long enough to wrap onto a second line of the agenda, as the titles of real items sometimes do`,
        durationMinutes: 5,
      })),
    ]);

    const { pages, bookmarks } = await readPack((await download(founder, meetingId)).body as Buffer);
    expect(bookmarks).toHaveLength(30);
    const agendaPages = pages.slice(1, bookmarks[0]!.page - 1);
    expect(agendaPages.length).toBeGreaterThan(1);
    expect(agendaPages.flatMap((page) => page.rightColumn)).toEqual(bookmarks.map((entry) => String(entry.page)));
    bookmarks.forEach((entry, index) => expect(pages[entry.page - 1]!.text).toContain(`ITEM ${index + 1} OF 30`));

    const scaledAt = pages.findIndex((page) => page.text.includes("Scaled page 1")) + 1;
    expect(scaledAt - bookmarks[0]!.page).toBeGreaterThan(1);
    const section = pages.slice(bookmarks[0]!.page - 1, scaledAt - 1).map((page) => page.text);
    expect(section.join(" ")).toContain(`scaled.pdf 1 page: page ${scaledAt}`);
    expect(section.join(" ")).toContain("Report 44.txt attachment not merged");

    const footer = pages[scaledAt - 1]!.footer!;
    expect(footer.y).toBeCloseTo(20, 0);
    expect(footer.x + footer.width / 2).toBeCloseTo(595.28 / 2, 0);
  });
  it("reads a paper on several items once and shows its pages on each, every page with its own footer", async () => {
    const { founder, meetingId, papers } = await setup();
    // A word far wider than a line: cut over many lines, nothing lost.
    const longWord = "0123456789".repeat(200);
    await putAgenda(founder, meetingId, [
      { title: "One", durationMinutes: 10, documentIds: [papers.a, papers.chart] },
      { title: "Two", durationMinutes: 10, description: longWord, documentIds: [papers.a] },
      { title: "Three", durationMinutes: 10, documentIds: [papers.chart, papers.a] },
    ]);
    const reads = watchReads();
    const response = await download(founder, meetingId);
    expect(response.status).toBe(200);
    expect(reads.ids()).toEqual([papers.a, papers.chart]);

    const { pages, bookmarks } = await readPack(response.body as Buffer);
    // Cover, agenda; One: section, Paper A's 3 pages, the chart; Two: section, Paper A; Three: section, the chart, Paper A.
    expect(pages).toHaveLength(2 + 5 + 4 + 5);
    expect(bookmarks.map((entry) => entry.page)).toEqual([3, 8, 12]);
    expect(pages[2]!.text).toMatch(/Paper A\.pdf .*3 pages: pages 4–6 .*chart\.png .*image: page 7/);
    expect(pages[7]!.text).toMatch(/Paper A\.pdf .*3 pages: pages 9–11/);
    expect(pages[7]!.text.replace(/ /g, "")).toContain(longWord);
    expect(pages[11]!.text).toMatch(/chart\.png .*image: page 13 .*Paper A\.pdf .*3 pages: pages 14–16/);
    for (const first of [4, 9, 14]) [0, 1, 2].forEach((n) => expect(pages[first - 1 + n]!.text).toContain(`Paper A page ${n + 1}`));
    for (const page of [7, 13]) expect(pages[page - 1]!.hasImage).toBe(true);
    pages.forEach((page, index) => expect(page.text.match(/Page \d+ of \d+/g)).toEqual([`Page ${index + 1} of ${pages.length}`]));
  });

  it("lists the papers past the pack's limits with a note instead of merging them", async () => {
    const { founder, meetingId, papers } = await setup();
    await putAgenda(founder, meetingId, [
      { title: "One", durationMinutes: 10, documentIds: [papers.a, papers.b] },
      { title: "Two", durationMinutes: 10, documentIds: [papers.notes, papers.a, papers.chart] },
    ]);
    const omitted = (name: string) => `${name} ${sizeLimitNote}`;

    // At most three papers merged: Paper A again is the third, the chart a fourth.
    packLimits.maxMergedPapers = 3;
    const reads = watchReads();
    const counted = await download(founder, meetingId);
    expect(counted.status).toBe(200);
    const byCount = (await readPack(counted.body as Buffer)).pages;
    expect(byCount).toHaveLength(2 + (1 + 3 + 2) + (1 + 3));
    expect(byCount[8]!.text).toMatch(/notes\.txt .*attachment not merged .*Paper A\.pdf .*3 pages: pages 10–12/);
    expect(byCount[8]!.text).toContain(omitted("chart.png"));
    expect(reads.ids()).toEqual([papers.a, papers.b]);

    // At most the bytes of Paper A and Paper B read: the chart is left unread.
    packLimits.maxMergedPapers = defaultLimits.maxMergedPapers;
    const sizes = await ctx.db
      .select({ id: documents.id, size: documents.fileSize })
      .from(documents)
      .where(inArray(documents.id, [papers.a, papers.b]));
    packLimits.maxPaperBytes = sizes.reduce((sum, row) => sum + Number(row.size), 0) + 10;
    // The limits are no part of the pack's tag: the pack kept from before is dropped, so it is built again.
    await ctx.db.delete(boardPacks);
    reads.clear();
    const bySize = await readPack((await download(founder, meetingId)).body as Buffer);
    expect(bySize.pages).toHaveLength(12);
    expect(bySize.pages[8]!.text).toContain(omitted("chart.png"));
    expect(reads.ids()).toEqual([papers.a, papers.b]);

    // A file larger than its recorded size: the read stops at the limit.
    await ctx.db.update(documents).set({ fileSize: 1 }).where(eq(documents.id, papers.chart));
    await ctx.db.delete(boardPacks);
    reads.clear();
    const stopped = await readPack((await download(founder, meetingId)).body as Buffer);
    expect(stopped.pages).toHaveLength(12);
    expect(stopped.pages[8]!.text).toContain(omitted("chart.png"));
    expect(reads.ids()).toEqual([papers.a, papers.b, papers.chart]);
  });
});
