import type { Locator, Page } from "playwright-core";
import { apiAs, createActiveCompany, registerAccount, scheduleMeetingThroughApi, uniqueName, type Account } from "./set-up";
import { expectAccessible, expectNoHorizontalScroll, useBrowser, viewports } from "./support";

// A board with hundreds of papers: each list screen renders the rows on screen only, tells the whole count, and
// scrolling (or tabbing) still reaches the last row.
const browser = useBrowser();

const DOCUMENTS = 300;
const RESOLUTIONS = 200;
const MEETINGS = 120;
/** The most elements a list screen may hold, whatever the list's length (the whole library rendered was ~93,000 at 3,000). */
const MAX_ELEMENTS = 3_000;
/** Rows in the document at once: a screenful and a few beyond each edge, never the list. */
const MAX_ROWS = 45;
const day = 24 * 60 * 60 * 1000;
const numbered = (n: number) => String(n).padStart(3, "0");

/** Runs `work(0 … count - 1)`, `lanes` at a time. */
async function inParallel(count: number, lanes: number, work: (index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

interface ListScreen {
  path: string;
  list: string;
  count: number;
  last: string;
}

const screens: ListScreen[] = [
  // Newest first: the paper written first, alone, is the last row.
  { path: "/documents", list: "Documents", count: DOCUMENTS, last: "Paper 001" },
  // Newest first too; meetings soonest first.
  { path: "/resolutions", list: "Pending resolutions", count: RESOLUTIONS, last: "Resolution 001" },
  { path: "/meetings", list: "Upcoming meetings", count: MEETINGS, last: `Meeting ${numbered(MEETINGS)}` },
];

let founder: Account;

beforeAll(async () => {
  founder = await registerAccount({ firstName: "Lena", lastName: "Long" });
  const company = await createActiveCompany(founder, { name: uniqueName("Decade Board "), location: "London, United Kingdom" });
  const note = (n: number) =>
    apiAs(founder, "POST", "/api/documents", { name: `Paper ${numbered(n)}`, category: "Financial", content: `Paper ${n}` });
  await note(1);
  await inParallel(DOCUMENTS - 1, 4, (index) => note(index + 2));
  const now = Date.now();
  const resolution = (n: number) =>
    apiAs(founder, "POST", "/api/resolutions", {
      title: `Resolution ${numbered(n)}`,
      description: `That the board approves item ${n}.`,
      type: "Ordinary",
      deadline: new Date(now + (n + 1) * day).toISOString(),
    });
  await resolution(1);
  await inParallel(RESOLUTIONS - 1, 4, (index) => resolution(index + 2));
  const board = { founder, companyId: company.id, members: [] };
  await inParallel(MEETINGS, 4, (index) =>
    scheduleMeetingThroughApi(board, {
      title: `Meeting ${numbered(index + 1)}`,
      start: new Date(now + (index + 2) * day),
      participants: [],
    }),
  );
}, 600_000);

/** The page's elements, and the list's rows in the document with the length they announce. */
async function sizeOf(page: Page, list: string) {
  return page.evaluate((name) => {
    const rows = document.querySelectorAll(`[role="list"][aria-label="${name}"] [role="listitem"]`);
    return {
      elements: document.getElementsByTagName("*").length,
      rows: rows.length,
      setSizes: [...new Set([...rows].map((row) => row.getAttribute("aria-setsize")))],
    };
  }, list);
}

/**
 * Scrolls the page to its end, again while it grows (rows are measured as they come into view, and may be taller
 * than estimated), until the row holding `text` is on screen; answers it.
 */
async function scrollToRow(page: Page, list: Locator, text: string): Promise<Locator> {
  const row = list.getByRole("listitem").filter({ hasText: text });
  const viewportHeight = page.viewportSize()!.height;
  const onScreen = async () => {
    if ((await row.count()) === 0) return false;
    const box = await row.boundingBox();
    return box !== null && box.y >= 0 && box.y + box.height <= viewportHeight + 1;
  };
  for (let attempt = 0; attempt < 20 && !(await onScreen()); attempt += 1) {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(200);
  }
  expect(await onScreen(), `${text} is on screen at the end of the list`).toBe(true);
  return row;
}

async function expectSmall(page: Page, screen: ListScreen) {
  const size = await sizeOf(page, screen.list);
  expect(size.elements, `${screen.path}: elements in the page`).toBeLessThan(MAX_ELEMENTS);
  expect(size.rows, `${screen.path}: rows in the document`).toBeGreaterThan(0);
  expect(size.rows, `${screen.path}: rows in the document`).toBeLessThanOrEqual(MAX_ROWS);
  expect(size.setSizes, `${screen.path}: the length each row announces`).toEqual([String(screen.count)]);
}

describe("long lists in the browser", () => {
  for (const [label, viewport] of viewports) {
    it(`render only the rows on screen, announce the whole count, and scroll to the last row (${label} px)`, async () => {
      const page = await browser.signedInPage(founder, { viewport, awaitWelcome: true });
      for (const screen of screens) {
        await page.goto(screen.path);
        const list = page.getByRole("list", { name: screen.list });
        await list.getByRole("listitem").first().waitFor();
        await expectSmall(page, screen);
        expect(await list.getByText(screen.last, { exact: true }).count(), `${screen.path}: the last row is not rendered yet`).toBe(0);

        const last = await scrollToRow(page, list, screen.last);
        expect(await last.getAttribute("aria-posinset")).toBe(String(screen.count));
        await expectSmall(page, screen);
        await expectNoHorizontalScroll(page);
        await expectAccessible(page);

        if (screen.path === "/documents") {
          // The grid too: rows of cards, as many a row as the width takes.
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.getByRole("button", { name: "Grid view" }).click();
          await list.getByRole("listitem").first().waitFor();
          await expectSmall(page, screen);
          const lastCard = await scrollToRow(page, list, screen.last);
          expect(await lastCard.getAttribute("aria-posinset")).toBe(String(screen.count));
          await expectSmall(page, screen);
          await expectNoHorizontalScroll(page);
          await page.getByRole("button", { name: "List view" }).click();
        }
      }
    });
  }

  it("reaches rows far beyond the first screen by Tab and back by Shift+Tab, focus never dropped", async () => {
    const page = await browser.signedInPage(founder, { awaitWelcome: true });
    await page.goto("/meetings");
    const list = page.getByRole("list", { name: "Upcoming meetings" });
    await list.getByRole("listitem").first().waitFor();
    const firstWindow = (await sizeOf(page, "Upcoming meetings")).rows;
    const target = firstWindow + 40;

    /** The position of the row holding focus, or null when focus is elsewhere; fails if focus fell to the body. */
    const focusedRow = async () => {
      const focus = await page.evaluate(() => ({
        onBody: document.activeElement === null || document.activeElement === document.body,
        position: document.activeElement?.closest('[role="listitem"]')?.getAttribute("aria-posinset") ?? null,
      }));
      expect(focus.onBody, "focus fell to the page's body").toBe(false);
      return focus.position === null ? null : Number(focus.position);
    };
    // One key a frame, as a held key repeats.
    const press = async (key: string) => {
      await page.keyboard.press(key);
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done(null))));
    };

    await page.getByRole("searchbox", { name: "Search meetings" }).focus();
    let position: number | null = null;
    for (let presses = 0; presses < target + 10 && position !== target; presses += 1) {
      await press("Tab");
      const now = await focusedRow();
      if (position !== null) expect(now, "Tab moves to the next row").toBe(position + 1);
      position = now;
    }
    expect(position).toBe(target);
    await expect
      .poll(() =>
        page
          .getByRole("link")
          .filter({ hasText: `Meeting ${numbered(target)}` })
          .isVisible(),
      )
      .toBe(true);

    for (let presses = 0; presses < 30; presses += 1) {
      await press("Shift+Tab");
      expect(await focusedRow()).toBe(target - presses - 1);
    }
    expect((await sizeOf(page, "Upcoming meetings")).rows).toBeLessThanOrEqual(MAX_ROWS);
  });
});
