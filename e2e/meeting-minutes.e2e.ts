import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { apiAs, boardWithMembers, scheduleMeetingThroughApi, uniqueName, type Board } from "./set-up";
import { checkScreen, expectAccessible, isDarkTheme, screenshot, useBrowser, viewports } from "./support";

const browser = useBrowser();

/** A meeting of the board that started half an hour ago, the founder among its participants (so they may chair it). */
async function startedMeeting(board: Board, title: string): Promise<{ id: number }> {
  return scheduleMeetingThroughApi(board, {
    title,
    start: new Date(Date.now() - 30 * 60 * 1000),
    participants: [board.founder, ...board.members],
    agenda: "1. Call to order and quorum (5 min)\n\n2. Financial review (30 min)",
  });
}

/** Presses Tab until the focus is inside the element matched by `selector`; fails after `limit` presses. */
async function tabInto(page: Page, selector: string, limit = 80): Promise<void> {
  for (let presses = 0; presses <= limit; presses += 1) {
    const inside = await page.evaluate((css) => document.querySelector(css)?.contains(document.activeElement) ?? false, selector);
    if (inside) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`focus did not reach ${selector} within ${limit} presses`);
}

/** Presses Tab until the focused element's name (aria-label, aria-labelledby, its label, else its text) is `name`. */
async function tabTo(page: Page, name: string, limit = 80): Promise<void> {
  for (let presses = 0; presses <= limit; presses += 1) {
    const focused = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      if (!active || active === document.body) return "";
      const labelledBy = active.getAttribute("aria-labelledby");
      const named = labelledBy
        ? labelledBy
            .split(/\s+/)
            .map((id) => document.getElementById(id)?.textContent ?? "")
            .join(" ")
        : null;
      const label = active.id ? document.querySelector(`label[for="${CSS.escape(active.id)}"]`)?.textContent : null;
      return (active.getAttribute("aria-label") ?? named ?? label ?? active.textContent ?? "").trim();
    });
    if (focused === name) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`no focusable element named ${name} within ${limit} presses`);
}

/** The checked radio of the participant's status group. */
function checkedStatus(page: Page, name: string) {
  return page
    .getByRole("region", { name: "Attendance" })
    .getByRole("radiogroup", { name: new RegExp(`^${name}`) })
    .evaluate((group) => (group.querySelector("input:checked") as HTMLInputElement | null)?.value);
}

/** Moves the focus into a participant's status group and presses `keys` (arrows move the checked status, wrapping). */
async function setStatusByKeyboard(page: Page, name: string, keys: string[]): Promise<void> {
  const id = await page
    .getByRole("region", { name: "Attendance" })
    .getByRole("radiogroup", { name: new RegExp(`^${name}`) })
    .evaluate((group) => {
      group.setAttribute("data-e2e-group", group.getAttribute("aria-labelledby") ?? "");
      return group.getAttribute("aria-labelledby");
    });
  await tabInto(page, `[data-e2e-group="${id}"]`);
  for (const key of keys) await page.keyboard.press(key);
}

describe("a meeting's record in the browser", () => {
  it("is kept by keyboard and clicks: attendance, minutes drafted, edited, circulated and signed, then the PDF", async () => {
    const board = await boardWithMembers();
    const title = uniqueName("Minuted Meeting ");
    const meeting = await startedMeeting(board, title);
    const page = await browser.signedInPage(board.founder, { awaitWelcome: true });
    await page.goto(`/meetings/${meeting.id}`);
    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    const attendance = page.getByRole("region", { name: "Attendance" });
    await attendance.getByRole("button", { name: "Save attendance" }).waitFor();

    // Everyone starts absent; arrows move through Present, Present by video, Apologies, Absent (and wrap).
    expect(await checkedStatus(page, "Morgan Chair")).toBe("absent");
    await setStatusByKeyboard(page, "Morgan Chair", ["ArrowRight"]);
    await setStatusByKeyboard(page, "Avery Director", ["ArrowRight", "ArrowRight"]);
    await setStatusByKeyboard(page, "Blake Trustee", ["ArrowRight"]);
    await setStatusByKeyboard(page, "Casey Advisor", ["ArrowLeft"]);
    expect(await checkedStatus(page, "Morgan Chair")).toBe("present");
    expect(await checkedStatus(page, "Avery Director")).toBe("remote");
    expect(await checkedStatus(page, "Blake Trustee")).toBe("present");
    expect(await checkedStatus(page, "Casey Advisor")).toBe("apologies");

    // The chair, among those present.
    await tabTo(page, "Chair");
    await page.keyboard.press("Enter");
    const option = page.getByRole("option", { name: "Morgan Chair" });
    await option.waitFor();
    for (let presses = 0; presses < 10 && !(await option.evaluate((element) => element === document.activeElement)); presses += 1) {
      await page.keyboard.press("ArrowDown");
    }
    await page.keyboard.press("Enter");
    await tabTo(page, "Guest name");
    await page.keyboard.type("Pat Auditor");
    await page.keyboard.press("Enter");
    await attendance.getByRole("button", { name: "Remove guest Pat Auditor" }).waitFor();
    await tabTo(page, "Save attendance");
    await page.keyboard.press("Enter");
    await page.getByText("Attendance saved").first().waitFor();
    await attendance.getByText("Quorate: 3 of 4 voting members present").waitFor();
    await screenshot(page, "meeting-attendance-1280-light");

    const stored = await apiAs<{ chairId: number; guests: { name: string }[] }>(
      board.founder,
      "GET",
      `/api/meetings/${meeting.id}/attendance`,
    );
    expect(stored).toMatchObject({ chairId: board.founder.id, guests: [{ name: "Pat Auditor" }] });

    // The minutes: drafted from the record, edited (saved on its own), circulated, signed.
    const minutes = page.getByRole("region", { name: "Minutes" });
    await minutes.getByText("Not drafted").waitFor();
    await minutes.getByRole("button", { name: "Draft minutes" }).click();
    const editor = minutes.getByRole("textbox", { name: "Minutes text" });
    await editor.waitFor();
    expect(await editor.inputValue()).toContain("Morgan Chair");
    await editor.press("ControlOrMeta+End");
    await editor.pressSequentially("\nAny other business: none.");
    await minutes.getByText("Saved", { exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "meeting-minutes-draft-1280-light");

    await minutes.getByRole("button", { name: "Circulate to participants" }).click();
    await page.getByText("Minutes circulated").first().waitFor();
    await minutes.getByText("Circulated", { exact: true }).waitFor();
    await minutes.getByRole("button", { name: "Approve…" }).click();
    const approve = page.getByRole("dialog", { name: "Approve the minutes" });
    await approve.getByRole("button", { name: "Sign as chair" }).click();
    await approve.waitFor({ state: "detached" });
    await minutes.getByText("Approved", { exact: true }).waitFor();
    await minutes.getByText(/^Approved on .+, signed by Morgan Chair as chair\.$/).waitFor();
    expect(await minutes.getByRole("document", { name: "Minutes text" }).textContent()).toContain("Any other business: none.");
    expect(await minutes.getByRole("textbox").count()).toBe(0);
    const sha = await minutes.locator("dd.font-mono").textContent();
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    // Approved minutes fix the attendance too.
    await attendance.getByRole("list", { name: "Participants' attendance" }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "meeting-minutes-approved-1280-light");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      minutes.getByRole("link", { name: "Download minutes (PDF)" }).click(),
    ]);
    expect(
      readFileSync(await download.path())
        .subarray(0, 5)
        .toString("latin1"),
    ).toBe("%PDF-");
  });

  for (const [label, viewport] of viewports) {
    for (const theme of ["light", "dark"] as const) {
      it(`lays the record out at ${label} px in ${theme} mode`, async () => {
        const board = await boardWithMembers();
        const title = uniqueName(`Recorded Board Meeting with a long title ${label} `);
        const meeting = await startedMeeting(board, title);
        await apiAs(board.founder, "PUT", `/api/meetings/${meeting.id}/attendance`, {
          attendees: [
            { userId: board.founder.id, status: "present" },
            { userId: board.members[0]!.id, status: "remote" },
            { userId: board.members[1]!.id, status: "apologies" },
          ],
          guests: [{ name: "Pat Auditor from the external audit firm" }],
          chairId: board.founder.id,
        });
        await apiAs(board.founder, "POST", `/api/meetings/${meeting.id}/minutes/draft`, {});
        const page = await browser.signedInPage(board.founder, { viewport, darkMode: theme === "dark", awaitWelcome: true });
        await page.goto(`/meetings/${meeting.id}`);
        await page.getByRole("heading", { level: 1, name: title }).waitFor();
        await page.getByRole("region", { name: "Attendance" }).getByRole("button", { name: "Save attendance" }).waitFor();
        await page.getByRole("region", { name: "Minutes" }).getByRole("textbox", { name: "Minutes text" }).waitFor();
        await page.waitForLoadState("networkidle");
        expect(await isDarkTheme(page)).toBe(theme === "dark");
        await checkScreen(page, `meeting-record-${label}-${theme}`);
      });
    }
  }
});
