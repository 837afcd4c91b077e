import request from "supertest";
import { companyProfile } from "../../testing/company-fixtures";
import { docxOf, searchFixtures } from "../../testing/search-fixtures";
import { useTestContext } from "../../testing/test-context";
import { linesPdf, versionFixtures } from "../../testing/version-fixtures";
import { maxPagesRanked, type SearchPage } from "../../../../shared/search";
import { readPendingTexts } from "../documents/paper-text.service";
import { searchLimits } from "./search.service";

const ctx = useTestContext();
const { upload, replace, addVersionForTest } = versionFixtures(ctx);
const { found, titlesOf } = searchFixtures(ctx);

const textFile = (text: string) => Buffer.from(text, "utf8");

/** A board with four papers about banks and covenants, one of each kind of file. */
async function covenantBoard() {
  const board = await ctx.board("Covenant Holdings");
  const { founder } = board;
  const breach = await upload(founder, "Breach.pdf", await linesPdf([["Quarterly outlook"], ["The bank covenant was breached in March"]]));
  const review = await upload(founder, "Review.docx", docxOf(["Treasury memo", "Our bank covenants are under review"]));
  const waiver = await upload(founder, "Waiver.txt", textFile("Audit committee\nThe covenant of the bank was waived.\n"));
  const holiday = await upload(founder, "Holiday.pdf", await linesPdf([["Bank holiday schedule"]]));
  return { ...board, breach, review, waiver, holiday };
}

describe("papers found by their text", () => {
  it("finds words in PDF, Word and text papers, each with the page they are on and a snippet marking them", async () => {
    const { founder, breach, review, waiver } = await covenantBoard();
    const page = await found(founder, { q: "covenant" });
    expect(page.results.map((result) => result.title).sort()).toEqual(["Breach.pdf", "Review.docx", "Waiver.txt"]);
    const byTitle = new Map(page.results.map((result) => [result.title, result]));
    expect(byTitle.get("Breach.pdf")).toMatchObject({
      kind: "document",
      id: breach.id,
      page: 2,
      // Short words are left off a snippet's ends.
      snippet: "bank <mark>covenant</mark> was breached in March",
      companyName: "Covenant Holdings",
    });
    // Stemmed: "covenants" is found for "covenant".
    expect(byTitle.get("Review.docx")).toMatchObject({
      id: review.id,
      page: 1,
      snippet: expect.stringContaining("<mark>covenants</mark>"),
    });
    expect(byTitle.get("Waiver.txt")).toMatchObject({ id: waiver.id, page: 1, snippet: expect.stringContaining("<mark>covenant</mark>") });
    expect(page).toMatchObject({ nextCursor: null, morePagesMatched: false, unsearched: [] });
  });

  it('finds a phrase only where its words stand together ("bank covenant")', async () => {
    const { founder } = await covenantBoard();
    const page = await found(founder, { q: '"bank covenant"' });
    expect(page.results.map((result) => result.title).sort()).toEqual(["Breach.pdf", "Review.docx"]);
    expect(page.results.find((result) => result.title === "Breach.pdf")?.snippet).toContain("<mark>bank</mark> <mark>covenant</mark>");
  });

  it("leaves out what holds an excluded word, in any of its forms (bank -covenant)", async () => {
    const { founder } = await covenantBoard();
    // Review.docx says "covenants": excluded as well.
    expect(titlesOf(await found(founder, { q: "bank -covenant" }))).toEqual(["document: Holiday.pdf"]);
  });

  it('leaves out only the pages where an excluded phrase\'s words stand together (bank -"bank holiday")', async () => {
    const { founder } = await covenantBoard();
    await upload(founder, "Outing.txt", textFile("A holiday spent at the bank\n"));
    const titles = titlesOf(await found(founder, { q: 'bank -"bank holiday"' })).sort();
    expect(titles).toEqual(["document: Breach.pdf", "document: Outing.txt", "document: Review.docx", "document: Waiver.txt"]);
  });

  it("gives a paper found on many pages once, at its best page", async () => {
    const { founder } = await ctx.board();
    const pages = [
      ["Dividends were discussed", "among many other things of the year"],
      ["Nothing"],
      ["Dividends", "dividend policy: dividends"],
    ];
    const paper = await upload(founder, "Dividends.pdf", await linesPdf(pages));
    expect((await found(founder, { q: "dividend" })).results).toEqual([expect.objectContaining({ id: paper.id, page: 3 })]);
  });

  it("finds a paper by its title alone, with no page", async () => {
    const { founder } = await ctx.board();
    const paper = await upload(founder, "notes.txt", textFile("Nothing to see"), "Liquidity forecast");
    const page = await found(founder, { q: "liquidity" });
    expect(page.results).toEqual([expect.objectContaining({ kind: "document", id: paper.id, title: "Liquidity forecast", page: null })]);
  });

  it("never finds another company's paper, whatever the scope", async () => {
    const { founder } = await ctx.board("Secretive Ltd");
    await upload(founder, "Secret.pdf", await linesPdf([["The zygomorphic merger plan"]]));
    const outsider = (await ctx.board("Curious Ltd")).founder;
    for (const scope of ["company", "all"]) {
      expect(await found(outsider, { q: "zygomorphic", scope })).toEqual({
        results: [],
        nextCursor: null,
        morePagesMatched: false,
        unsearched: [],
      });
    }
    expect((await found(founder, { q: "zygomorphic" })).results).toHaveLength(1);
  });

  it("past the bound on pages ranked, ranks the newest papers' pages and says more matched", async () => {
    const { founder } = await ctx.board();
    const oldest = await upload(founder, "Oldest.pdf", await linesPdf([["Cover"], ["Covenant covenant covenant covenant"]]));
    const middle = await upload(founder, "Middle.pdf", await linesPdf([["The covenant"], ["A covenant and a bank"]]));
    const newest = await upload(founder, "Newest.pdf", await linesPdf([["A covenant among many words of a long page"]]));
    const ids = (page: SearchPage) => page.results.map((result) => result.id);
    const all = await found(founder, { q: "covenant" });
    expect(ids(all).sort()).toEqual([oldest.id, middle.id, newest.id].sort());
    expect(all.morePagesMatched).toBe(false);
    searchLimits.pagesRanked = 3;
    try {
      const bounded = await found(founder, { q: "covenant" });
      expect(ids(bounded).sort()).toEqual([middle.id, newest.id].sort());
      expect(bounded.morePagesMatched).toBe(true);
      // Four pages hold it: within a bound of four, all are ranked again.
      searchLimits.pagesRanked = 4;
      expect(await found(founder, { q: "covenant" })).toMatchObject({ morePagesMatched: false, results: all.results });
    } finally {
      searchLimits.pagesRanked = maxPagesRanked;
    }
  });

  it('bounds a phrase with a gap ("of the") by the newest pages that hold its words, in any order', async () => {
    const { founder } = await ctx.board();
    const older = await upload(founder, "Older.txt", textFile("The covenant of the bank was waived\n"));
    await upload(founder, "Newer.txt", textFile("The bank wrote about the covenant\n"));
    searchLimits.pagesRanked = 1;
    try {
      // Only the newer page is within the bound, and its words stand apart.
      expect(await found(founder, { q: '"covenant of the bank"' })).toMatchObject({ results: [], morePagesMatched: true });
      searchLimits.pagesRanked = 2;
      expect(await found(founder, { q: '"covenant of the bank"' })).toMatchObject({
        results: [expect.objectContaining({ id: older.id })],
        morePagesMatched: false,
      });
    } finally {
      searchLimits.pagesRanked = maxPagesRanked;
    }
  });

  it("finds a replaced paper by its new text, never its old", async () => {
    const { founder } = await ctx.board();
    const paper = await upload(founder, "Strategy.pdf", await linesPdf([["Expansion into Antarctica"]]));
    expect((await found(founder, { q: "Antarctica" })).results).toHaveLength(1);
    const replaced = await replace(founder, paper.id, "Revised", "Strategy.pdf", await linesPdf([["Cover"], ["Expansion into Patagonia"]]));
    expect(replaced.status).toBe(201);
    expect((await found(founder, { q: "Antarctica" })).results).toEqual([]);
    expect((await found(founder, { q: "Patagonia" })).results).toEqual([expect.objectContaining({ id: paper.id, page: 2 })]);
  });
});

describe("papers whose text is not read yet, or has none", () => {
  it("are found once the sweep has read them (a version from before the text was kept)", async () => {
    const { founder } = await ctx.board();
    const paper = await upload(founder, "Fleet.pdf", await linesPdf([["Fleet plan"]]));
    // A version as one written before search: pending, no text.
    await addVersionForTest(paper.id, 2, "application/pdf", await linesPdf([["Zeppelin procurement"]]));
    const before = await found(founder, { q: "zeppelin" });
    expect(before.results).toEqual([]);
    expect(before.unsearched).toEqual([{ documentId: paper.id, title: "Fleet.pdf", reason: "pending" }]);
    while ((await readPendingTexts(ctx.deps, 20)) > 0);
    const after = await found(founder, { q: "zeppelin" });
    expect(after.results).toEqual([expect.objectContaining({ id: paper.id, page: 1, snippet: "<mark>Zeppelin</mark> procurement" })]);
    expect(after.unsearched).toEqual([]);
  });

  it("list a scanned paper (no text layer) as not searched", async () => {
    const { founder } = await ctx.board();
    const scan = await upload(founder, "Scan.pdf", await linesPdf([null, null]));
    await upload(founder, "Budget.pdf", await linesPdf([["Budget"]]));
    const page = await found(founder, { q: "budget" });
    expect(titlesOf(page)).toEqual(["document: Budget.pdf"]);
    expect(page.unsearched).toEqual([{ documentId: scan.id, title: "Scan.pdf", reason: "scanned" }]);
  });
});

describe("the company's language", () => {
  it("stems the words of a German board in German, once the board chooses it (its record indexed again)", async () => {
    const { founder, company } = await ctx.board("Bankhaus AG");
    const paper = await upload(founder, "Prüfung.txt", textFile("Die Verträgen mit den Aktionären wurden geprüft.\n"));
    expect((await found(founder, { q: "Vertrag" })).results).toEqual([]);
    const changed = await request(ctx.app)
      .put(`/api/companies/${company.id}`)
      .set("Authorization", founder.bearer)
      .send(companyProfile({ name: "Bankhaus AG", logoUrl: undefined, searchLanguage: "german" }));
    expect(changed.status).toBe(200);
    expect(changed.body.searchLanguage).toBe("german");
    expect((await found(founder, { q: "Vertrag" })).results).toEqual([
      expect.objectContaining({ id: paper.id, snippet: expect.stringContaining("<mark>Verträgen</mark>") }),
    ]);
    // Its new papers are indexed in German as they are written.
    await upload(founder, "Bilanzen.txt", textFile("Die Bilanzen sind fertig.\n"));
    expect(titlesOf(await found(founder, { q: "Bilanz" }))).toEqual(["document: Bilanzen.txt"]);
  });

  it("searches titles word for word when the words are all stop words of the language (IT, The Who)", async () => {
    const { founder } = await ctx.board();
    await upload(founder, "a.txt", textFile("Budget"), "IT roadmap");
    await upload(founder, "b.txt", textFile("Budget"), "IT budget");
    await upload(founder, "c.txt", textFile("The Who played while it rained"), "Concert");
    await upload(founder, "d.txt", textFile("Budget"), "The Who tribute");
    expect(titlesOf(await found(founder, { q: "IT" })).sort()).toEqual(["document: IT budget", "document: IT roadmap"]);
    expect(titlesOf(await found(founder, { q: "The Who" }))).toEqual(["document: The Who tribute"]);
    // An exclusion holds in the word-for-word search too.
    expect(titlesOf(await found(founder, { q: "IT -roadmap" }))).toEqual(["document: IT budget"]);
  });
});
