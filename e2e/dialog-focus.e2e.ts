import type { Locator, Page } from "playwright-core";
import { boardWithMembers } from "./set-up";
import { useBrowser } from "./support";

const browser = useBrowser();

/** True once `locator` is the document's focused element (focus comes back a tick after the dialog closes). */
async function waitForFocus(page: Page, locator: Locator): Promise<void> {
  const handle = await locator.elementHandle();
  await page.waitForFunction((element) => document.activeElement === element, handle, { timeout: 5000 });
}

/** Opens the dialog named `dialogName` with the button named `buttonName`, closes it with Escape, and expects focus back on the button. */
async function expectFocusReturns(page: Page, buttonName: string, dialogName: string): Promise<void> {
  const opener = page.getByRole("button", { name: buttonName, exact: true });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: dialogName });
  await dialog.waitFor();
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  await waitForFocus(page, opener);
}

describe("dialogs in the browser", () => {
  it("give focus back to the button that opened them once Escape closes them", async () => {
    const board = await boardWithMembers();
    // Escape closes the newest layer first, and a toast is one: the sign-in's toast (its toaster loads on demand)
    // arriving after a dialog opened would take the first Escape. Here it is on screen before any dialog opens.
    const page = await browser.signedInPage(board.founder, { awaitWelcome: true });
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    // The dashboard's Schedule meeting dialog is a module loaded on first opening.
    await expectFocusReturns(page, "New Meeting", "Schedule New Board Meeting");

    await page.goto("/resolutions");
    await page.getByRole("heading", { level: 1, name: "Board Resolutions" }).waitFor();
    await expectFocusReturns(page, "New Resolution", "New Resolution");

    await page.goto("/documents");
    await expectFocusReturns(page, "Upload Document", "Upload Document");
  });
});
