import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import type { Locator, Page } from "playwright-core";
import { apiAs, boardWithMembers, memberCredentials, scheduleMeetingThroughApi, uniqueName, type Board } from "./set-up";
import { checkScreen, expectAccessible, screenshot, useBrowser, viewports } from "./support";

const browser = useBrowser();

const pageTexts = {
  revenue: "Revenue grew four percent in the quarter, led by subscription sales.",
  costs: "Operating costs fell as the London office moved to a smaller floor.",
  capex: "Capital expenditure on the Dublin data centre is deferred a year.",
  summary: "Executive summary: the board is asked to approve the revised budget.",
};

/** A PDF with one line of text on each page. */
async function pdfOf(lines: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const line of lines) pdf.addPage([400, 300]).drawText(line, { x: 24, y: 250, size: 10, font });
  return Buffer.from(await pdf.save());
}

/** A paper uploaded by the founder and put on a new meeting's agenda; answers both ids. */
async function paperOnAgenda(board: Board, name: string): Promise<{ paperId: number; meetingId: number }> {
  const bytes = await pdfOf([pageTexts.revenue, pageTexts.costs, pageTexts.capex]);
  const paper = await apiAs<{ id: number }>(board.founder, "POST", "/api/documents", {
    name,
    category: "Financial",
    content: `data:application/pdf;base64,${bytes.toString("base64")}`,
  });
  const meeting = await scheduleMeetingThroughApi(board, { title: uniqueName("Budget meeting "), start: new Date(Date.now() + 7 * 864e5) });
  await apiAs(board.founder, "PUT", `/api/meetings/${meeting.id}/agenda`, {
    items: [{ title: "Budget", durationMinutes: 30, purpose: "decision", documentIds: [paper.id] }],
  });
  return { paperId: paper.id, meetingId: meeting.id };
}

/** The reader's page `number` drawn (its canvas painted). */
const drawn = (page: Page, number: number) => page.locator(`[data-page="${number}"][data-drawn="true"]`).waitFor({ timeout: 30_000 });

describe("reading papers in the browser", () => {
  for (const [label, viewport] of viewports) {
    it(`reads the pack by its outline, writes a note, and finds it on its new page after the secretary replaces the paper (${label} px)`, async () => {
      const board = await boardWithMembers();
      const name = uniqueName("Budget 2027 ");
      const { paperId, meetingId } = await paperOnAgenda(board, name);
      const director = await browser.signedInPage(memberCredentials(board.members[0]!), { viewport, awaitWelcome: true });

      // The pack in the reader, and a jump by its outline to the paper.
      await director.goto(`/meetings/${meetingId}`);
      await director.getByRole("region", { name: "Your reading" }).getByRole("link", { name: "Read the pack" }).click();
      const reader = director.getByRole("region", { name: "Document reader" });
      await reader.waitFor({ timeout: 60_000 });
      await drawn(director, 1);
      if (!(await director.getByRole("navigation", { name: "Outline" }).isVisible())) {
        await director.getByRole("button", { name: "Pages and search" }).click();
      }
      // The pack's outline has an entry per agenda item, opening its section; the item's paper follows it.
      await director
        .getByRole("navigation", { name: "Outline" })
        .getByRole("button", { name: /Budget/ })
        .first()
        .click();
      await director.getByText(pageTexts.revenue).first().waitFor();
      await screenshot(director, `reading-${label}-pack`);

      // The paper itself: a note on its second page.
      await director.goto(`/documents/${paperId}/read?page=2`);
      await drawn(director, 2);
      await director.getByText("Page 2 of 3").first().waitFor();
      if (!(await director.getByRole("complementary", { name: "My notes" }).isVisible())) {
        await director.getByRole("button", { name: "My notes" }).click();
      }
      const notes = director.getByRole("complementary", { name: "My notes" });
      await notes.getByRole("button", { name: "Note on this page" }).click();
      await notes.getByLabel("Note", { exact: true }).fill("Ask about the London lease");
      await notes.getByRole("button", { name: "Save note" }).click();
      await notes.getByRole("article", { name: "Note on page 2" }).waitFor();
      await expectAccessible(director);
      await checkScreen(director, `reading-${label}-note`);

      // The secretary replaces the paper: a summary page first, the capex page gone.
      const secretary = await browser.signedInPage(board.founder, { viewport, awaitWelcome: true });
      await secretary.goto("/documents");
      await secretary.getByRole("button", { name: `Replace ${name}` }).click();
      const dialog = secretary.getByRole("dialog", { name: `Replace ${name}` });
      await dialog.getByLabel("New file").setInputFiles({
        name: "budget.pdf",
        mimeType: "application/pdf",
        buffer: await pdfOf([pageTexts.summary, pageTexts.revenue, pageTexts.costs]),
      });
      await dialog.getByLabel("What changed?").fill("Summary added; capex moves to its own paper");
      await dialog.getByRole("button", { name: "Upload new version" }).click();
      await dialog.waitFor({ state: "detached", timeout: 60_000 });
      await secretary
        .getByText(/v2 · replaced/)
        .first()
        .waitFor();
      await checkScreen(secretary, `reading-${label}-library`);

      // The director sees the paper changed since they read it, and what changed.
      await director.goto(`/meetings/${meetingId}`);
      const flag = director.getByRole("link", { name: `${name} changed since you read it: see what changed` }).first();
      await flag.waitFor({ timeout: 30_000 });
      await checkScreen(director, `reading-${label}-changed`);
      // The pack says so too, under its title, and its flag opens what changed since the version the director read.
      await director.goto(`/meetings/${meetingId}/pack`);
      const packFlag = director
        .getByRole("list", { name: "Changed since you read them" })
        .getByRole("link", { name: `${name} changed since you read it: see what changed` });
      await packFlag.waitFor({ timeout: 30_000 });
      expect(await packFlag.getAttribute("href")).toBe(`/documents/${paperId}/compare?from=1&to=2`);
      await drawn(director, 1);
      await checkScreen(director, `reading-${label}-pack-changed`);
      await packFlag.click();
      await director.getByText("Page 1 added").waitFor({ timeout: 30_000 });
      await director.getByText("Page 3 removed").waitFor();
      await checkScreen(director, `reading-${label}-compare`);

      // The note followed its page: "costs" was page 2, and is page 3 now.
      await director.goto(`/documents/${paperId}/read`);
      await drawn(director, 1);
      if (!(await director.getByRole("complementary", { name: "My notes" }).isVisible())) {
        await director.getByRole("button", { name: "My notes" }).click();
      }
      await director.getByRole("complementary", { name: "My notes" }).getByRole("button", { name: "All pages" }).click();
      await director.getByRole("article", { name: "Note on page 3" }).getByText("Ask about the London lease").waitFor();

      // The secretary sees who has opened the papers (opened or not), and the board's setting for it.
      await secretary.goto(`/meetings/${meetingId}`);
      const receipts = secretary.getByRole("region", { name: "Who has opened the papers" });
      await receipts.getByText("Avery Director").waitFor();
      await checkScreen(secretary, `reading-${label}-receipts`);
      await secretary.goto("/company-settings");
      // The quorum and governance forms, below the profile, are drawn as they come near the view.
      await secretary.getByRole("button", { name: "Save Changes" }).scrollIntoViewIfNeeded();
      await secretary.getByText("Read receipts", { exact: true }).waitFor();
      await secretary.getByText("Notes retention").scrollIntoViewIfNeeded();
      await checkScreen(secretary, `reading-${label}-governance`);
      await secretary.close();
    });
  }

  for (const [label, viewport] of viewports) {
    it(`is read by keyboard alone: go to page, the page list, zoom, search and a note written and saved (${label} px)`, async () => {
      // Below 768 px the page list, the search and the notes are sheets opened from the toolbar; wider, they sit beside
      // the pages (the notes from 1280 px).
      const narrow = viewport.width < 768;
      const board = await boardWithMembers();
      const name = uniqueName("Keyboard paper ");
      const { paperId } = await paperOnAgenda(board, name);
      const page = await browser.signedInPage(memberCredentials(board.members[1]!), { viewport, awaitWelcome: true });
      await page.goto(`/documents/${paperId}/read`);
      await drawn(page, 1);
      const keys = keyboardOf(page);
      const toolbar = page.getByRole("toolbar", { name: "Reader controls" });
      const sideToggle = toolbar.getByRole("button", { name: "Pages and search" });
      const openSide = async () => {
        if (!narrow) return;
        await keys.tabTo(sideToggle, "back");
        await page.keyboard.press("Enter");
      };

      // Go to page: the number typed over the current one, then Enter.
      await keys.tabTo(toolbar.getByRole("textbox", { name: "Go to page" }));
      await page.keyboard.type("3");
      await page.keyboard.press("Enter");
      await page.getByText("Page 3 of 3").first().waitFor();
      // Out of the page box (where Home moves the caret), Home goes to the first page.
      await page.keyboard.press("Tab");
      await page.keyboard.press("Home");
      await page.getByText("Page 1 of 3").first().waitFor();

      // The page list: Space on a page's thumbnail goes there (and, on a phone, closes the sheet, the focus back on
      // the button that opened it).
      await openSide();
      await keys.tabTo(page.getByRole("navigation", { name: "Pages" }).getByRole("button", { name: "Page 2" }));
      await page.keyboard.press("Space");
      await page.getByText("Page 2 of 3").first().waitFor();
      if (narrow) await keys.expectFocused(sideToggle);

      // Zoom in, then back to the page's width.
      const zoomIn = toolbar.getByRole("button", { name: "Zoom in" });
      await keys.tabTo(zoomIn, narrow ? "forward" : "back");
      await page.keyboard.press("Enter");
      const fit = toolbar.getByRole("button", { name: "Fit width" });
      await page.waitForFunction(() => document.querySelector('[aria-label="Fit width"]')?.getAttribute("aria-pressed") === "false");
      await page.keyboard.press("Tab");
      await keys.expectFocused(fit);
      await page.keyboard.press("Space");
      await page.waitForFunction(() => document.querySelector('[aria-label="Fit width"]')?.getAttribute("aria-pressed") === "true");

      // Search: typed, its results listed, Enter goes to the first.
      await openSide();
      await keys.tabTo(page.getByRole("searchbox", { name: "Search in document" }));
      await page.keyboard.type("Dublin");
      await page
        .getByRole("list", { name: "Search results" })
        .getByText(/Page 3/)
        .waitFor();
      await page.keyboard.press("Enter");
      await page.getByText("Page 3 of 3").first().waitFor();
      if (narrow) await keys.expectFocused(sideToggle);

      // A note on the page, written and saved by keyboard; the focus stays in the notes once it is saved.
      if (narrow) {
        await keys.tabTo(toolbar.getByRole("button", { name: "My notes" }));
        await page.keyboard.press("Enter");
      }
      const notes = page.getByRole("complementary", { name: "My notes" });
      await keys.tabTo(notes.getByRole("button", { name: "Note on this page" }));
      await page.keyboard.press("Enter");
      await keys.expectFocused(notes.getByLabel("Note", { exact: true }));
      await page.keyboard.type("Ask why Dublin is deferred");
      await keys.tabTo(notes.getByRole("button", { name: "Save note" }));
      await page.keyboard.press("Enter");
      await notes.getByRole("article", { name: "Note on page 3" }).getByText("Ask why Dublin is deferred").waitFor();
      await keys.expectFocused(notes.getByRole("button", { name: "Note on this page" }));
      // And on from there, by Tab, to the note just saved.
      await keys.tabTo(notes.getByRole("button", { name: "Edit note on page 3" }));
      expect(keys.unseen(), "controls of the reader reached by Tab that show no focus").toEqual([]);
    });
  }
});

/**
 * The keyboard of `page`: Tab or Shift+Tab until a control has the focus, each control reached inside the reader (or
 * one of its sheets) checked for a visible focus indicator.
 */
function keyboardOf(page: Page) {
  const unseen = new Set<string>();
  const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement);
  return {
    async tabTo(target: Locator, direction: "forward" | "back" = "forward", max = 80) {
      await target.waitFor();
      for (let press = 0; press < max; press += 1) {
        await page.keyboard.press(direction === "back" ? "Shift+Tab" : "Tab");
        const shown = await page.evaluate(() => {
          const active = document.activeElement as HTMLElement | null;
          if (!active || active === document.body) return null;
          if (!active.closest('[aria-label="Document reader"], [role="dialog"]')) return null;
          const style = getComputedStyle(active);
          const visible = (style.outlineStyle !== "none" && style.outlineWidth !== "0px") || style.boxShadow !== "none";
          return visible ? null : active.getAttribute("aria-label") || active.textContent?.trim() || active.tagName;
        });
        if (shown) unseen.add(shown);
        if (await isFocused(target)) return;
      }
      throw new Error(`${String(target)} was not reached by ${max} presses of ${direction === "back" ? "Shift+Tab" : "Tab"}`);
    },
    async expectFocused(target: Locator) {
      await target.waitFor();
      await page.waitForFunction((element) => element === document.activeElement, await target.elementHandle(), { timeout: 5_000 });
    },
    unseen: () => [...unseen],
  };
}
