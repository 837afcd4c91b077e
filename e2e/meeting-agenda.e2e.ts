import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { apiAs, baseURL, boardWithMembers, scheduleMeetingThroughApi, uniqueName, type Board } from "./set-up";
import { checkScreen, expectAccessible, isDarkTheme, screenshot, useBrowser, viewports } from "./support";

const browser = useBrowser();

/** A one-page PDF: the paper attached to an item. */
function onePagePdf(): Buffer {
  return Buffer.from(
    "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n" +
      "3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
    "latin1",
  );
}

/** Uploads a paper to the board's library through the API (set-up only). */
async function uploadPaper(board: Board, name: string): Promise<{ id: number }> {
  const form = new FormData();
  form.append("name", name);
  form.append("category", "Financial");
  form.append("file", new Blob([new Uint8Array(onePagePdf())], { type: "application/pdf" }), name);
  const response = await fetch(`${baseURL()}/api/documents`, {
    method: "POST",
    headers: { Authorization: `Bearer ${board.founder.token}` },
    body: form,
  });
  if (!response.ok) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: number };
}

/** What the focused element is called: its aria-label, else the text of what labels it (aria-labelledby, label), else its own text. */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    if (!active || active === document.body) return "";
    const labelled = active.getAttribute("aria-label");
    if (labelled) return labelled;
    const labelledBy = active.getAttribute("aria-labelledby");
    if (labelledBy) {
      return labelledBy
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent?.trim() ?? "")
        .join(" ");
    }
    const label = active.id ? document.querySelector(`label[for="${CSS.escape(active.id)}"]`) : null;
    return (label?.textContent ?? active.textContent ?? "").trim();
  });
}

/** Presses Tab (or Shift+Tab) until the focused element's name is `name`; fails after `limit` presses. */
async function tabTo(page: Page, name: string | RegExp, { backwards = false, limit = 80 } = {}): Promise<void> {
  const matches = (text: string) => (typeof name === "string" ? text === name : name.test(text));
  for (let presses = 0; presses <= limit; presses += 1) {
    if (matches(await focusedName(page))) return;
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
  }
  throw new Error(`no focusable element named ${String(name)} within ${limit} presses (last: "${await focusedName(page)}")`);
}

/** The focused element shows a focus ring (the app's focus-visible styles draw a box-shadow ring or an outline). */
async function expectVisibleFocus(page: Page): Promise<void> {
  const ring = await page.evaluate(() => {
    const style = getComputedStyle(document.activeElement!);
    return { shadow: style.boxShadow, outline: style.outlineStyle };
  });
  expect(ring.shadow !== "none" || ring.outline !== "none", JSON.stringify(ring)).toBe(true);
}

const agendaHeadings = (page: Page) => page.getByRole("region", { name: "Agenda" }).getByRole("heading", { level: 3 });

/** Presses ArrowDown in an open listbox until the option named `name` has the focus; fails after `limit` presses. */
async function arrowDownTo(page: Page, name: string, limit = 20): Promise<void> {
  const option = page.getByRole("option", { name });
  for (let presses = 0; presses < limit; presses += 1) {
    if (await option.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("ArrowDown");
  }
  throw new Error(`option "${name}" not reached within ${limit} presses of ArrowDown`);
}

describe("a meeting's agenda in the browser", () => {
  it("is edited, reordered, saved, confirmed and packed by keyboard alone", async () => {
    const board = await boardWithMembers();
    const paper = `${uniqueName("Q3 Financials ")}.pdf`;
    await uploadPaper(board, paper);
    const title = uniqueName("Strategy Meeting ");
    const meeting = await scheduleMeetingThroughApi(board, {
      title,
      start: new Date(Date.now() + 3 * 24 * 60 * 60 * 1000),
      agenda: "",
    });
    const page = await browser.signedInPage(board.founder, { awaitWelcome: true });
    await page.goto(`/meetings/${meeting.id}`);
    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    await page.getByRole("region", { name: "Agenda" }).getByText("No agenda items yet").waitFor();

    // The first item: 'Add item' focuses its title.
    await tabTo(page, "Add item");
    await expectVisibleFocus(page);
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Save agenda" }).waitFor();
    expect(await focusedName(page)).toBe("Item 1 Title");
    await page.keyboard.type("Financial review");
    await tabTo(page, "Item 1 Presenter");
    await page.keyboard.press("Enter");
    await page.getByRole("option", { name: "Avery Director" }).waitFor();
    // Radix moves focus to the chosen option ("No presenter"); the members follow it.
    await arrowDownTo(page, "Avery Director");
    await page.keyboard.press("Enter");
    await tabTo(page, "Item 1 Duration (min)");
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("30");
    await tabTo(page, "Item 1 Description (optional)");
    await page.keyboard.type("Q3 numbers and the forecast.");
    await tabTo(page, 'Attach papers and resolutions to "Financial review"');
    await page.keyboard.press("Enter");
    const attach = page.getByRole("dialog", { name: "Attach papers and resolutions" });
    await attach.waitFor();
    await tabTo(page, paper);
    await page.keyboard.press("Space");
    await tabTo(page, "Attach");
    await page.keyboard.press("Enter");
    await attach.waitFor({ state: "detached" });

    // The second item.
    await tabTo(page, "Add item");
    await page.keyboard.press("Enter");
    expect(await focusedName(page)).toBe("Item 2 Title");
    await page.keyboard.type("Call to order");
    await tabTo(page, "Item 2 Duration (min)");
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("5");

    // Above the first, with its Move up button; focus stays on the moved item's buttons.
    await tabTo(page, 'Move "Call to order" up', { backwards: true });
    await expectVisibleFocus(page);
    await page.keyboard.press("Enter");
    await page.getByText("Moved “Call to order” to position 1 of 2.").waitFor();
    expect(await focusedName(page)).toBe('Move "Call to order" down');
    const titles = page.getByRole("region", { name: "Agenda" }).getByRole("textbox", { name: /^Item \d+ Title$/ });
    expect(await titles.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual([
      "Call to order",
      "Financial review",
    ]);
    await expectAccessible(page);
    await screenshot(page, "meeting-agenda-editor-1280-light");

    await tabTo(page, "Save agenda");
    await page.keyboard.press("Enter");
    await page.getByText("Agenda saved").first().waitFor();
    expect(await agendaHeadings(page).allTextContents()).toEqual(["1. Call to order", "2. Financial review"]);

    // Kept: after a reload, in that order, with the start times following on from each other.
    await page.reload();
    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    await agendaHeadings(page).first().waitFor();
    expect(await agendaHeadings(page).allTextContents()).toEqual(["1. Call to order", "2. Financial review"]);
    const agenda = page.getByRole("region", { name: "Agenda" });
    await agenda.getByText("Avery Director").waitFor();
    await agenda.getByRole("button", { name: `Open paper ${paper}` }).waitFor();
    await agenda.getByText("2 items · 35 min").waitFor();

    // Confirmed.
    await page.getByText("Pending", { exact: true }).waitFor();
    await tabTo(page, "Confirm meeting");
    await page.keyboard.press("Enter");
    await page.getByText("Meeting confirmed").first().waitFor();
    await page.getByText("Confirmed", { exact: true }).waitFor();

    // The board pack: a PDF, saved by the browser.
    await tabTo(page, "Download board pack");
    const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
    const saved = await download.path();
    expect(readFileSync(saved).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    await page.getByRole("button", { name: "Download board pack" }).waitFor();

    // The paper, a PDF, opens in the reader from its button; the browser's Back returns to the meeting.
    await tabTo(page, `Open paper ${paper}`);
    await page.keyboard.press("Enter");
    await page.locator('[data-page="1"][data-drawn="true"]').waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toMatch(/^\/documents\/\d+\/read$/);
    await page.goBack();
    await page.getByRole("button", { name: `Open paper ${paper}` }).waitFor();

    const stored = await apiAs<{ items: { title: string }[] }>(board.founder, "GET", `/api/meetings/${meeting.id}/agenda`);
    expect(stored.items.map((item) => item.title)).toEqual(["Call to order", "Financial review"]);
  });

  for (const [label, viewport] of viewports) {
    for (const theme of ["light", "dark"] as const) {
      it(`lays the meeting's page out at ${label} px in ${theme} mode`, async () => {
        const board = await boardWithMembers();
        await uploadPaper(board, "Board minutes May.pdf");
        const title = uniqueName(`Quarterly Board Meeting ${label} `);
        const meeting = await scheduleMeetingThroughApi(board, {
          title,
          start: new Date(Date.now() + 5 * 24 * 60 * 60 * 1000),
          agenda:
            "1. Call to order and quorum (5 min)\nThe chair opens the meeting.\n\n2. Minutes of the last meeting (10 min)\n\n3. Financial review with a long title that has to wrap on a narrow phone screen (45 min)\nThe CFO walks through the quarter's numbers, the cash position and the forecast.",
        });
        const page = await browser.signedInPage(board.founder, { viewport, darkMode: theme === "dark", awaitWelcome: true });
        await page.goto(`/meetings/${meeting.id}`);
        await page.getByRole("heading", { level: 1, name: title }).waitFor();
        await agendaHeadings(page).first().waitFor();
        await page.getByRole("region", { name: "Participants" }).getByText("Avery Director").waitFor();
        await page.waitForLoadState("networkidle");
        expect(await isDarkTheme(page)).toBe(theme === "dark");
        await checkScreen(page, `meeting-page-${label}-${theme}`);

        await page.getByRole("button", { name: "Edit agenda" }).click();
        await page.getByRole("button", { name: "Save agenda" }).waitFor();
        await checkScreen(page, `meeting-editor-${label}-${theme}`);
      });
    }
  }
});
