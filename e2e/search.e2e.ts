import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import type { Page } from "playwright-core";
import { vi } from "vitest";
import type { SearchPage } from "../shared/search";
import { apiAs, boardWithMembers, memberCredentials, uniqueName, type Board } from "./set-up";
import { checkScreen, screenshot, useBrowser, viewports } from "./support";

const browser = useBrowser();

// A word said three times on this paper's third page (and once on its first): a paper is one hit, at its best page,
// and it ranks above another paper that says the word once.
const pageTexts = [
  "Quarterly report: no change to the dividend this year.",
  "Operating costs fell as the London office moved to a smaller floor.",
  "Dividend policy: the board proposes a dividend, and the dividend is paid in July.",
];

async function pdfOf(lines: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const line of lines) pdf.addPage([420, 300]).drawText(line, { x: 24, y: 250, size: 10, font });
  return Buffer.from(await pdf.save());
}

/** The paper uploaded by the founder, once the search finds its words (its text is read in the background). */
async function searchablePaper(board: Board, name: string, texts: string[]): Promise<number> {
  const bytes = await pdfOf(texts);
  const paper = await apiAs<{ id: number }>(board.founder, "POST", "/api/documents", {
    name,
    category: "Financial",
    content: `data:application/pdf;base64,${bytes.toString("base64")}`,
  });
  await vi.waitFor(
    async () => {
      const found = await apiAs<SearchPage>(board.founder, "GET", "/api/search?q=dividend");
      if (!found.results.some((result) => result.kind === "document" && result.id === paper.id)) throw new Error("not searchable yet");
    },
    { timeout: 60_000, interval: 500 },
  );
  return paper.id;
}

/** The reader's page `number` drawn (its canvas painted). */
const drawn = (page: Page, number: number) => page.locator(`[data-page="${number}"][data-drawn="true"]`).waitFor({ timeout: 30_000 });

describe("searching the board's record in the browser", () => {
  for (const [label, viewport] of viewports) {
    it(`finds a paper's words with Ctrl-K and opens the best hit at its page, the words highlighted, by keyboard alone (${label} px)`, async () => {
      const board = await boardWithMembers();
      const paperId = await searchablePaper(board, uniqueName("Payout paper "), pageTexts);
      await searchablePaper(board, uniqueName("Costs paper "), [pageTexts[1]!, pageTexts[0]!]);
      const director = await browser.signedInPage(memberCredentials(board.members[0]!), { viewport, awaitWelcome: true });
      await director.getByRole("button", { name: "Search" }).waitFor();

      await director.keyboard.press("Control+k");
      const dialog = director.getByRole("dialog", { name: "Search" });
      const box = dialog.getByRole("combobox", { name: "Search the board's record" });
      await box.waitFor();
      await director.keyboard.type("dividend");
      const options = dialog.getByRole("listbox", { name: "Results" }).getByRole("option");
      await options.nth(1).waitFor({ timeout: 30_000 });
      // Best first: the paper whose third page says it three times, at that page; each hit shows its snippet with the word marked.
      await options.first().getByText("page 3", { exact: false }).waitFor();
      expect(await options.first().locator("mark").first().textContent()).toMatch(/dividend/i);
      expect(await options.nth(1).textContent()).toContain("page 2");
      expect(await options.count()).toBe(2);
      await checkScreen(director, `search-${label}-dialog`);

      await director.keyboard.press("ArrowDown");
      await director.keyboard.press("ArrowUp");
      expect(await box.getAttribute("aria-activedescendant")).toBe(await options.first().getAttribute("id"));
      await director.keyboard.press("Enter");

      await director.waitForURL((url) => url.pathname === `/documents/${paperId}/read` && url.searchParams.get("page") === "3");
      expect(new URL(director.url()).searchParams.get("highlight")?.toLowerCase()).toContain("dividend");
      await drawn(director, 3);
      await director.getByText("Page 3 of 3").first().waitFor();
      const highlighted = director.locator('[data-page="3"] mark.reader-highlight');
      await highlighted.first().waitFor();
      expect(await highlighted.count()).toBe(3);
      await screenshot(director, `search-${label}-reader`);

      // The search page: the same results, and the query kept in its address.
      await director.keyboard.press("Control+k");
      await box.waitFor();
      await options.first().waitFor();
      await dialog.getByRole("link", { name: "See all results" }).focus();
      await director.keyboard.press("Enter");
      await director.waitForURL((url) => url.pathname === "/search" && url.searchParams.get("q") === "dividend");
      await director.getByRole("list", { name: "Results" }).getByRole("link").nth(1).waitFor();
      await checkScreen(director, `search-${label}-page`);
    });
  }
});
