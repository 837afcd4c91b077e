import { and, count, eq } from "drizzle-orm";
import { documentComparisons, documentVersions } from "../../db/schema";
import { sampleGif, samplePng, zip } from "../../testing/sample-files";
import { useTestContext } from "../../testing/test-context";
import { linesPdf, versionFixtures } from "../../testing/version-fixtures";
import { pageMapping, pageTextsOf } from "./paper-text.service";
import { textJobCounts, textWorkLimits } from "./paper-text/text-pool";

const ctx = useTestContext();
const { upload, addVersionForTest, compare } = versionFixtures(ctx);

const cover = ["Annual report 2026", "Prepared for the board of Acme Holdings"];
const finance = ["Finance review", "Revenue rose to 12 million pounds", "Costs fell by four percent", "Cash at year end 3 million"];
const risks = ["Principal risks", "Interest rates on the loan facility", "Supplier concentration in Asia"];
const appendix = ["Appendix", "Glossary of terms used in this report"];
const outlook = ["Outlook", "The board expects steady growth in the coming year", "Hiring plans for engineering"];

/** A paper of four pages, and its second version: risks removed, finance changed by a line, outlook added. */
async function reportWithTwoVersions() {
  const { founder, member: addMember } = await ctx.board();
  const member = await addMember();
  const before = await linesPdf([cover, finance, risks, appendix]);
  const changedFinance = [...finance.slice(0, 2), "Costs fell by six percent", finance[3]!];
  const after = await linesPdf([cover, changedFinance, outlook, appendix]);
  const id = (await upload(founder, "Annual report.pdf", before)).id;
  await addVersionForTest(id, 2, "application/pdf", after);
  return { founder, member, id };
}

describe("comparing two versions of a paper", () => {
  it("aligns two PDFs page by page: same, changed (with its lines), removed where it was, added", async () => {
    const { member, id } = await reportWithTwoVersions();
    const response = await compare(member, id, 1, 2);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      pages: [
        { fromPage: 1, toPage: 1, change: "same" },
        {
          fromPage: 2,
          toPage: 2,
          change: "changed",
          lines: [
            { op: "same", text: "Finance review" },
            { op: "same", text: "Revenue rose to 12 million pounds" },
            { op: "del", text: "Costs fell by four percent" },
            { op: "add", text: "Costs fell by six percent" },
            { op: "same", text: "Cash at year end 3 million" },
          ],
        },
        { fromPage: 3, toPage: null, change: "removed" },
        { fromPage: null, toPage: 3, change: "added" },
        { fromPage: 4, toPage: 4, change: "same" },
      ],
    });
    expect(await pageMapping(ctx.deps, id, 1, 2)).toEqual(
      new Map([
        [1, 1],
        [2, 2],
        [3, null],
        [4, 4],
      ]),
    );
  });

  it("computes a pair once: a second request (and the page mapping) runs no job", async () => {
    const { member, id } = await reportWithTwoVersions();
    expect((await compare(member, id, 1, 2)).status).toBe(200);
    const started = textJobCounts.started;
    const again = await compare(member, id, 1, 2);
    expect(again.status).toBe(200);
    expect(again.body.pages).toHaveLength(5);
    await pageMapping(ctx.deps, id, 1, 2);
    expect(textJobCounts.started).toBe(started);
    const [stored] = await ctx.db.select({ n: count() }).from(documentComparisons).where(eq(documentComparisons.documentId, id));
    expect(stored!.n).toBe(1);
    // The other way round is another pair.
    expect((await compare(member, id, 2, 1)).status).toBe(200);
    expect(textJobCounts.started).toBe(started + 1);
  });

  it("computes a pair once when many ask at the same time", async () => {
    const { member, id } = await reportWithTwoVersions();
    await pageTextsOf(ctx.deps, id, 1);
    await pageTextsOf(ctx.deps, id, 2);
    const started = textJobCounts.started;
    const answers = await Promise.all(Array.from({ length: 5 }, () => compare(member, id, 1, 2)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    // One stored and read back has its keys in the database's order: the same answer, compared as values.
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    expect(textJobCounts.started).toBe(started + 1);
  });

  it("answers whether the file changed, and keeps it, when comparing passes the worker's caps (never a 500)", async () => {
    const { founder, member: addMember } = await ctx.board();
    const member = await addMember();
    const lines = (tag: string) => Array.from({ length: 20_000 }, (_, n) => `Line ${n} ${n % 7 === 0 ? tag : "same"}`).join("\n");
    const id = (await upload(founder, "Ledger.txt", Buffer.from(lines("before")))).id;
    await addVersionForTest(id, 2, "text/plain", Buffer.from(lines("after")));
    await pageTextsOf(ctx.deps, id, 1);
    await pageTextsOf(ctx.deps, id, 2);
    // No time at all, so the comparison fails before its worker starts (a 1 ms cap could lose to a quick diff).
    textWorkLimits.timeoutMs = 0;
    try {
      const answer = await compare(member, id, 1, 2);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ changed: true });
    } finally {
      textWorkLimits.timeoutMs = 60_000;
    }
    const started = textJobCounts.started;
    expect((await compare(member, id, 1, 2)).body).toEqual({ changed: true });
    expect(textJobCounts.started).toBe(started);
  });

  it("compares text files line by line", async () => {
    const { founder } = await ctx.board();
    const id = (await upload(founder, "Notes.txt", Buffer.from("Agenda\nBudget\nAOB\n"))).id;
    await addVersionForTest(id, 2, "text/plain", Buffer.from("Agenda\nBudget for 2027\nAOB\nClose\n"));
    const response = await compare(founder, id, 1, 2);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      lines: [
        { op: "same", text: "Agenda" },
        { op: "del", text: "Budget" },
        { op: "add", text: "Budget for 2027" },
        { op: "same", text: "AOB" },
        { op: "add", text: "Close" },
      ],
    });
  });

  it("compares a Word file with a text file line by line", async () => {
    const { founder } = await ctx.board();
    const paragraphs = ["Terms of reference", "The committee meets quarterly"]
      .map((text) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`)
      .join("");
    const docx = zip({
      "[Content_Types].xml":
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      "word/document.xml": `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs}</w:body></w:document>`,
    });
    const id = (await upload(founder, "Terms.docx", docx)).id;
    await addVersionForTest(id, 2, "text/plain", Buffer.from("Terms of reference\nThe committee meets monthly\n"));
    expect((await compare(founder, id, 1, 2)).body).toEqual({
      lines: [
        { op: "same", text: "Terms of reference" },
        { op: "del", text: "The committee meets quarterly" },
        { op: "add", text: "The committee meets monthly" },
      ],
    });
  });

  it("says only whether it changed when a side has no text: a scanned PDF", async () => {
    const { founder } = await ctx.board();
    const id = (await upload(founder, "Minutes.pdf", await linesPdf([cover]))).id;
    await addVersionForTest(id, 2, "application/pdf", await linesPdf([null]));
    expect((await compare(founder, id, 1, 2)).body).toEqual({ changed: true });
    expect(await pageMapping(ctx.deps, id, 1, 2)).toEqual(new Map([[1, 1]]));
  });

  it("answers 503 with Retry-After while a version's text could not be read, and stores nothing", async () => {
    const { founder, id } = await reportWithTwoVersions();
    await ctx.db
      .update(documentVersions)
      .set({ textStatus: "failed", textAttempts: 1 })
      .where(and(eq(documentVersions.documentId, id), eq(documentVersions.version, 2)));
    const response = await compare(founder, id, 1, 2);
    expect(response.status).toBe(503);
    expect(response.headers["retry-after"]).toBe("60");
    expect(response.body.message).toMatch(/could not be read/);
    const [stored] = await ctx.db.select({ n: count() }).from(documentComparisons).where(eq(documentComparisons.documentId, id));
    expect(stored!.n).toBe(0);
  });

  it("says only whether an image changed", async () => {
    const { founder } = await ctx.board();
    const id = (await upload(founder, "Chart.png", samplePng())).id;
    await addVersionForTest(id, 2, "image/png", samplePng());
    await addVersionForTest(id, 3, "image/gif", sampleGif());
    expect((await compare(founder, id, 1, 2)).body).toEqual({ changed: false });
    expect((await compare(founder, id, 2, 3)).body).toEqual({ changed: true });
  });

  it("refuses one version twice (400), and a version the paper does not have (404)", async () => {
    const { founder, id } = await reportWithTwoVersions();
    const other = (await upload(founder, "Other.txt", Buffer.from("Other"))).id;
    await addVersionForTest(other, 2, "text/plain", Buffer.from("Other, again"));
    await addVersionForTest(other, 3, "text/plain", Buffer.from("Other, third"));
    const same = await compare(founder, id, 2, 2);
    expect(same.status).toBe(400);
    expect(same.body.message).toBe("Compare two different versions");
    // Version 3 exists, but of another paper: two papers' versions are never compared.
    const otherPapers = await compare(founder, id, 1, 3);
    expect(otherPapers.status).toBe(404);
    expect(otherPapers.body).toEqual({ message: "This paper has no such version" });
    expect((await compare(founder, id, 0, 2)).status).toBe(400);
    expect((await compare(founder, id, "x", 2)).status).toBe(400);
    const stranger = (await ctx.board("Other Co")).founder;
    expect((await compare(stranger, id, 1, 2)).status).toBe(404);
  });
});
