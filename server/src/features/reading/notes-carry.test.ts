import { eq } from "drizzle-orm";
import type { PaperNote } from "../../../../shared/paper-reading";
import { paperNotes } from "../../db/schema";
import { linesPdf, versionFixtures } from "../../testing/version-fixtures";
import { readingFixtures } from "../../testing/reading-fixtures";
import { useTestContext } from "../../testing/test-context";

const ctx = useTestContext();
const { api, as, board, putAgenda } = readingFixtures(ctx);
const { upload } = versionFixtures(ctx);

const pages = {
  revenue: "Revenue grew four percent in the quarter, led by subscription sales in Germany and France.",
  costs: "Operating costs fell as the London office moved to a smaller floor and travel was cut back.",
  capex: "Capital expenditure on the new data centre in Dublin is deferred to the second half of next year.",
  outlook: "The outlook for the full year is unchanged: growth of six to eight percent on constant currency.",
  summary: "Executive summary, added in this version: the board is asked to approve the revised budget today.",
};

describe("notes on a paper replaced by a new version", () => {
  it("follow their page to the new version, or stay unplaced on a page that is gone, with its text; the move is stored", async () => {
    const { founder, ann, meetingId } = await board("Carry Ltd");
    const pdf = (texts: string[]) => linesPdf(texts.map((text) => [text]));
    const papers = {
      budget: (await upload(founder, "budget.pdf", await pdf([pages.revenue, pages.costs, pages.capex, pages.outlook]), "Budget.pdf")).id,
    };
    await putAgenda(founder, meetingId, [[papers.budget]]);
    const write = async (page: number, text: string) =>
      (await as(ann).post(`/api/documents/${papers.budget}/notes`, { version: 1, page, text })).body as PaperNote;
    const moved = await write(1, "On revenue");
    const gone = await write(3, "On capex");
    const kept = await write(4, "On the outlook");
    // Version 2, through the app: a summary comes first, the capex page is dropped.
    const replaced = await api()
      .post(`/api/documents/${papers.budget}/versions`)
      .set("Authorization", founder.bearer)
      .field("note", "Summary added, capex deferred to its own paper")
      .attach("file", await pdf([pages.summary, pages.revenue, pages.costs, pages.outlook]), "budget.pdf");
    expect(replaced.status).toBe(201);

    const listed = await as(ann).get(`/api/documents/${papers.budget}/notes`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { ...moved, version: 2, page: 2 },
      { ...kept, version: 2, page: 4 },
      { ...gone, unplaced: true, pageText: pages.capex },
    ]);
    const stored = await ctx.db
      .select({ id: paperNotes.id, version: paperNotes.version, page: paperNotes.page, unplaced: paperNotes.unplaced })
      .from(paperNotes)
      .where(eq(paperNotes.documentId, papers.budget))
      .orderBy(paperNotes.id);
    expect(stored).toEqual([
      { id: moved.id, version: 2, page: 2, unplaced: false },
      { id: gone.id, version: 1, page: 3, unplaced: true },
      { id: kept.id, version: 2, page: 4, unplaced: false },
    ]);
    // Read again, nothing moves further; the export shows the unplaced note where it was written.
    expect((await as(ann).get(`/api/documents/${papers.budget}/notes`)).body).toEqual(listed.body);
    const exported = await as(ann).get(`/api/meetings/${meetingId}/notes/export?format=md`);
    expect(exported.text).toContain("## Budget.pdf (version 2)\n\n### Page 2\n\nOn revenue\n\n### Page 4\n\nOn the outlook\n\n");
    expect(exported.text).toContain("### Page 3 of version 1 (no longer in the paper)\n\nOn capex\n");
  });
});
