import { format } from "date-fns";
import type { Page } from "playwright-core";
import { complianceRuleIds, type ComplianceGroup, type ComplianceGroupName } from "../shared/compliance";
import { apiAs, boardWithMembers, memberSession, scheduleMeetingThroughApi, uniqueName, type Board } from "./set-up";
import { checkScreen, choose, expectAccessible, isDarkTheme, screenshot, useBrowser, viewports } from "./support";

const browser = useBrowser();

/**
 * The panels in the order a phone shows them, top to bottom. A wide screen reads the same order: the four
 * lists two to a row, then Quick Actions and Compliance Health across the width.
 */
const panelOrder = [
  "Compliance Reminders",
  "Pending Resolutions",
  "Upcoming Meetings",
  "Recent Documents",
  "Quick Actions",
  "Compliance Health",
];

const complianceOf = (board: Board) => apiAs<ComplianceGroup[]>(board.founder, "GET", `/api/companies/${board.companyId}/compliance`);

/** The dashboard once every panel has loaded (no skeleton rows, no placeholder group cards). */
async function dashboardLoaded(page: Page): Promise<void> {
  await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
  for (const name of panelOrder) await page.getByRole("region", { name }).waitFor();
  await page.getByRole("region", { name: "Compliance Health" }).getByRole("progressbar", { name: "Resolutions compliance" }).waitFor();
  await page.getByRole("main").getByRole("status").first().waitFor({ state: "detached" });
}

/** A group's score as the Compliance Health bar reads it out. */
async function shownProgress(page: Page, group: ComplianceGroupName): Promise<number> {
  const bar = page.getByRole("region", { name: "Compliance Health" }).getByRole("progressbar", { name: `${group} compliance` });
  return Number(await bar.getAttribute("aria-valuenow"));
}

async function expectShownProgress(page: Page, group: ComplianceGroupName, progress: number): Promise<void> {
  const bar = page.getByRole("region", { name: "Compliance Health" }).getByRole("progressbar", { name: `${group} compliance` });
  await page.waitForFunction(
    ([element, value]) => element?.getAttribute("aria-valuenow") === value,
    [await bar.elementHandle(), String(progress)] as const,
    { timeout: 10_000 },
  );
}

const progressOf = (groups: ComplianceGroup[], name: ComplianceGroupName) => groups.find((group) => group.name === name)!.progress;

describe("the dashboard in the browser", () => {
  for (const [label, viewport] of viewports) {
    it(`shows a new company's six panels in order of importance, then the AGM reminder opens the prefilled modal (${label} px)`, async () => {
      const board = await boardWithMembers();
      const page = await browser.signedInPage(board.founder, { viewport });
      await dashboardLoaded(page);

      // A new company: nothing listed yet, and a low compliance score.
      await page.getByRole("region", { name: "Pending Resolutions" }).getByText("No pending resolutions.").waitFor();
      await page.getByRole("region", { name: "Upcoming Meetings" }).getByText("No upcoming meetings scheduled.").waitFor();
      await page.getByRole("region", { name: "Recent Documents" }).getByText("No documents uploaded yet.").waitFor();
      const quickActions = page.getByRole("region", { name: "Quick Actions" });
      for (const action of ["Create resolution", "Upload document"]) await quickActions.getByRole("link", { name: action }).waitFor();
      await quickActions.getByRole("button", { name: "Create meeting" }).waitFor();
      const fresh = await complianceOf(board);
      for (const group of ["Meetings", "Documents", "Resolutions"] as const)
        expect(await shownProgress(page, group)).toBe(progressOf(fresh, group));
      expect(await shownProgress(page, "Documents")).toBeLessThan(40);
      const reminders = page.getByRole("region", { name: "Compliance Reminders" });
      // Whatever the server finds due for a company founded today is listed, each with its real date; never 2023.
      expect(await reminders.textContent()).not.toContain("2023");

      // The order of importance: one column on a phone; two panels to a row on a wide screen.
      const boxes = await Promise.all(panelOrder.map((name) => page.getByRole("region", { name }).boundingBox()));
      for (let index = 1; index < boxes.length; index += 1) {
        const [above, panel] = [boxes[index - 1]!, boxes[index]!];
        if (viewport.width >= 1024 && index % 2 === 1 && index < 4) {
          // Side by side: the second of a pair starts on the same line, to the right of the first.
          expect(panel.y).toBe(above.y);
          expect(panel.x).toBeGreaterThan(above.x + above.width);
        } else {
          expect(panel.y).toBeGreaterThanOrEqual(above.y + above.height);
        }
      }
      await checkScreen(page, `dashboard-new-company-${label}`);

      // Last year's AGM, held fourteen months ago: the next one falls due within the reminder window.
      const held = new Date();
      held.setMonth(held.getMonth() - 14);
      await scheduleMeetingThroughApi(board, { title: `Annual General Meeting ${held.getFullYear()}`, start: held });
      const agm = (await complianceOf(board))
        .flatMap((group) => group.items)
        .find((item) => item.id === complianceRuleIds.annualGeneralMeeting)!;
      expect(agm.dueDate).toBeDefined();
      const due = new Date(agm.dueDate!);

      await page.reload();
      await dashboardLoaded(page);
      const reminder = reminders.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Annual General Meeting Due" }) });
      await reminder.getByText(`The Annual General Meeting is due before ${format(due, "MMMM d, yyyy")}.`).waitFor();
      await checkScreen(page, `dashboard-agm-reminder-${label}`);

      await reminder.getByRole("button", { name: "Schedule AGM" }).click();
      const dialog = page.getByRole("dialog", { name: "Schedule Annual General Meeting" });
      await dialog.waitFor();
      expect(await dialog.getByLabel("Meeting title").inputValue()).toBe(`Annual General Meeting ${due.getFullYear()}`);
      await expectAccessible(page);
      await screenshot(page, `dashboard-agm-modal-${label}`);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });

      // The same screen in dark mode.
      const dark = await browser.signedInPage(board.founder, { viewport, darkMode: true });
      await dashboardLoaded(dark);
      await dark.getByRole("heading", { name: "Annual General Meeting Due" }).waitFor();
      expect(await isDarkTheme(dark)).toBe(true);
      await checkScreen(dark, `dashboard-dark-${label}`);
    });
  }

  it("changes its panels after an upload and a vote, without a reload", async () => {
    const board = await boardWithMembers();
    const title = uniqueName("Adopt the annual accounts ");
    const deadline = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000).toISOString();
    const resolution = await apiAs<{ id: number }>(board.founder, "POST", "/api/resolutions", {
      title,
      description: "The board adopts the accounts for the year.",
      type: "Ordinary",
      deadline,
    });
    // Every other member has voted: the founder's vote, cast in the browser, decides it.
    for (const member of board.members) {
      const session = await memberSession(member);
      await apiAs(session, "POST", `/api/resolutions/${resolution.id}/vote`, { vote: "yes" });
    }
    const before = await complianceOf(board);

    const page = await browser.signedInPage(board.founder);
    await dashboardLoaded(page);
    await page.getByRole("region", { name: "Pending Resolutions" }).getByText(title).waitFor();
    expect(await shownProgress(page, "Documents")).toBe(progressOf(before, "Documents"));
    expect(await shownProgress(page, "Resolutions")).toBe(progressOf(before, "Resolutions"));
    const backToDashboard = async () => {
      // The sidebar's link: the app changes screens in place, so what the dashboard shows comes from its cache.
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
      await dashboardLoaded(page);
    };

    // The financial statements, uploaded from the Quick Actions card.
    const statements = uniqueName("Financial statements ");
    await page.getByRole("region", { name: "Quick Actions" }).getByRole("link", { name: "Upload document" }).click();
    const upload = page.getByRole("dialog", { name: "Upload Document" });
    await upload.waitFor();
    await upload.getByLabel("Title").fill(statements);
    await choose(upload, "Category", "Financial");
    await upload
      .getByLabel("File")
      .setInputFiles({ name: "statements.txt", mimeType: "text/plain", buffer: Buffer.from("Balance sheet and P&L") });
    await upload.getByRole("button", { name: "Upload" }).click();
    await page.getByText("Document uploaded").first().waitFor({ timeout: 60_000 });
    await upload.waitFor({ state: "detached" });
    await backToDashboard();
    await page.getByRole("region", { name: "Recent Documents" }).getByText(statements).waitFor();
    const afterUpload = await complianceOf(board);
    expect(progressOf(afterUpload, "Documents")).toBeGreaterThan(progressOf(before, "Documents"));
    await expectShownProgress(page, "Documents", progressOf(afterUpload, "Documents"));

    // The deciding vote, from the Pending Resolutions panel.
    await page
      .getByRole("region", { name: "Pending Resolutions" })
      .getByRole("link", { name: `Vote Now: ${title}` })
      .click();
    const vote = page.getByRole("dialog", { name: "Cast Your Vote" });
    await vote.waitFor();
    await vote.getByRole("radio", { name: "Yes" }).check();
    await vote.getByRole("button", { name: "Vote Now" }).click();
    await page.getByText("Vote recorded").first().waitFor();
    await page.keyboard.press("Escape");
    await vote.waitFor({ state: "detached" });
    await backToDashboard();
    await page.getByRole("region", { name: "Pending Resolutions" }).getByText("No pending resolutions.").waitFor();
    const afterVote = await complianceOf(board);
    expect(progressOf(afterVote, "Resolutions")).not.toBe(progressOf(before, "Resolutions"));
    await expectShownProgress(page, "Resolutions", progressOf(afterVote, "Resolutions"));
    await expectAccessible(page);
    await screenshot(page, "dashboard-after-upload-and-vote-1280");
  });
});
