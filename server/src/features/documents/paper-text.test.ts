import { and, eq } from "drizzle-orm";
import { documentPageTexts, documents, documentVersions } from "../../db/schema";
import { sampleDocx, samplePdf, samplePng } from "../../testing/sample-files";
import { useTestContext } from "../../testing/test-context";
import { linesPdf, versionFixtures } from "../../testing/version-fixtures";
import { pageTextsOf, readPendingTexts, textReadsSettled } from "./paper-text.service";
import { textWorkLimits } from "./paper-text/text-pool";

const ctx = useTestContext();
const { upload, addVersionForTest } = versionFixtures(ctx);

async function versionState(documentId: number, version = 1) {
  const [row] = await ctx.db
    .select({ status: documentVersions.textStatus, attempts: documentVersions.textAttempts, pages: documentVersions.pages })
    .from(documentVersions)
    .where(and(eq(documentVersions.documentId, documentId), eq(documentVersions.version, version)));
  return row!;
}

describe("a paper version's text", () => {
  it("reads a PDF page by page, line by line, and sets the page count of the version and the paper", async () => {
    const { founder } = await ctx.board();
    const pdf = await linesPdf([["Budget 2027", "Revenue grows by ten percent"], null, ["Risks", "Interest rates"]]);
    const id = (await upload(founder, "Budget.pdf", pdf)).id;
    // The upload reads it in the background; then it is made a paper from before page counts, read again on demand.
    await textReadsSettled();
    expect(await versionState(id)).toMatchObject({ status: "done" });
    await ctx.db.delete(documentPageTexts).where(eq(documentPageTexts.documentId, id));
    await ctx.db.update(documents).set({ pages: null }).where(eq(documents.id, id));
    await ctx.db.update(documentVersions).set({ pages: null, textStatus: "pending" }).where(eq(documentVersions.documentId, id));
    expect(await pageTextsOf(ctx.deps, id, 1)).toEqual(["Budget 2027\nRevenue grows by ten percent", "", "Risks\nInterest rates"]);
    expect(await versionState(id)).toMatchObject({ status: "done", pages: 3 });
    const [paper] = await ctx.db.select({ pages: documents.pages }).from(documents).where(eq(documents.id, id));
    expect(paper!.pages).toBe(3);
  });

  it("reads a Word file and a text file as one page each", async () => {
    const { founder } = await ctx.board();
    const docx = (await upload(founder, "Minutes.docx", sampleDocx())).id;
    expect(await pageTextsOf(ctx.deps, docx, 1)).toEqual(["Minutes"]);
    const txt = (await upload(founder, "Notes.txt", Buffer.from("\uFEFFFirst line\r\n\r\n  Second   line \n", "utf8"))).id;
    expect(await pageTextsOf(ctx.deps, txt, 1)).toEqual(["First line\nSecond line"]);
    expect(await versionState(txt)).toMatchObject({ status: "done" });
  });

  it("finds no text in an image or a scanned (text-less) PDF", async () => {
    const { founder } = await ctx.board();
    const image = (await upload(founder, "Chart.png", samplePng())).id;
    expect(await pageTextsOf(ctx.deps, image, 1)).toBeNull();
    expect(await versionState(image)).toMatchObject({ status: "none" });
    const scanned = (await upload(founder, "Scan.pdf", await linesPdf([null, null]))).id;
    expect(await pageTextsOf(ctx.deps, scanned, 1)).toBeNull();
    expect(await versionState(scanned)).toMatchObject({ status: "none", pages: 2 });
    const rows = await ctx.db.select().from(documentPageTexts).where(eq(documentPageTexts.documentId, scanned));
    expect(rows).toEqual([]);
  });

  it("back-fills by the sweep: a version left pending gets its text; a failing one is tried three times", async () => {
    const { founder } = await ctx.board();
    const id = (await upload(founder, "Plan.pdf", await linesPdf([["Plan"]]))).id;
    await addVersionForTest(id, 2, "application/pdf", await linesPdf([["Plan, revised"]]));
    // A damaged file: reading it fails every time.
    const broken = (await upload(founder, "Broken.pdf", samplePdf())).id;
    await addVersionForTest(broken, 2, "application/pdf", Buffer.from("%PDF-1.4\nnot really a PDF\n%%EOF\n"));
    await ctx.db.update(documentVersions).set({ textStatus: "done" }).where(eq(documentVersions.documentId, broken));
    await ctx.db
      .update(documentVersions)
      .set({ textStatus: "pending" })
      .where(and(eq(documentVersions.documentId, broken), eq(documentVersions.version, 2)));
    for (let sweep = 0; sweep < 5; sweep += 1) await readPendingTexts(ctx.deps, 10);
    expect(await versionState(id, 1)).toMatchObject({ status: "done" });
    expect(await versionState(id, 2)).toMatchObject({ status: "done" });
    expect(await pageTextsOf(ctx.deps, id, 2)).toEqual(["Plan, revised"]);
    expect(await versionState(broken, 2)).toMatchObject({ status: "failed", attempts: 3 });
    await expect(pageTextsOf(ctx.deps, broken, 2)).rejects.toMatchObject({ status: 503 });
  });
});

describe("the text worker's caps", () => {
  afterEach(() => {
    textWorkLimits.timeoutMs = 60_000;
  });

  it("ends a reading past its time: the version is failed, its attempt counted, and the next reading succeeds", async () => {
    const { founder } = await ctx.board();
    // No time at all, so the reading fails before its worker starts (a 1 ms cap let a quick reading finish first).
    textWorkLimits.timeoutMs = 0;
    // The upload itself queues the reading of its text.
    const id = (await upload(founder, "Long.pdf", await linesPdf([["A long paper"]]))).id;
    await textReadsSettled();
    expect(await versionState(id)).toMatchObject({ status: "failed", attempts: 1 });
    textWorkLimits.timeoutMs = 60_000;
    expect(await readPendingTexts(ctx.deps, 10)).toBe(1);
    expect(await pageTextsOf(ctx.deps, id, 1)).toEqual(["A long paper"]);
  });
});
