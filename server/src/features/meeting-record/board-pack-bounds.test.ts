import { documentFiles, documents } from "../../db/schema";
import { packFixtures, paperPdf, readPack } from "../../testing/board-pack-fixtures";
import { sharedTreePdf } from "../../testing/hostile-pdfs";
import { useTestContext } from "../../testing/test-context";
import { tooLargeNote } from "./board-pack.pages";
import { pdfJobCounts } from "./pdf-pool";

const ctx = useTestContext();
const { schedule, upload, putAgenda, download } = packFixtures(ctx);

describe("papers held to the PDF bounds as the board pack reads them", () => {
  it("lists a paper stored before the bounds, and past them, as too large to include, and merges the rest", async () => {
    const { founder, company } = await ctx.board("Old Papers Ltd", { firstName: "Fay", lastName: "Founder" });
    const meetingId = await schedule(founder, []);
    const small = await upload(founder, "Small.pdf", "application/pdf", await paperPdf("Small", 2));
    // Written directly, as papers were before uploads were checked: a page tree whose one node, listed 50 times,
    // lists one page 50 times, so a reader merges 2,500 pages.
    const bytes = sharedTreePdf({ levels: 2, fanOut: 50 });
    const [old] = await ctx.db
      .insert(documents)
      .values({ companyId: company.id, name: "Old.pdf", fileType: "application/pdf", fileSize: bytes.length, category: "Other" })
      .returning({ id: documents.id });
    await ctx.db.insert(documentFiles).values({ documentId: old!.id, bytes });
    await putAgenda(founder, meetingId, [{ title: "Reports", durationMinutes: 10, documentIds: [old!.id, small] }]);

    const jobsBefore = pdfJobCounts.started;
    const response = await download(founder, meetingId);
    expect(response.status).toBe(200);
    const { pages } = await readPack(response.body as Buffer);
    // Cover, agenda, the section, Small's two pages.
    expect(pages).toHaveLength(5);
    expect(pages[2]!.text).toContain(`Old.pdf ${tooLargeNote}`);
    expect(pages[2]!.text).toMatch(/Small\.pdf .*2 pages: pages 4–5/);
    // The first try ended when the old paper was refused; the second left it out without reading it.
    expect(pdfJobCounts.started - jobsBefore).toBe(2);
  }, 60_000);
});
