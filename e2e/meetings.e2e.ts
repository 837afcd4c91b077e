import type { Page } from "playwright-core";
import { apiAs, boardWithMembers, memberSession, uniqueName, type Board } from "./set-up";
import { checkScreen, expectAccessible, screenshot, useBrowser, viewports } from "./support";

const browser = useBrowser();

/** Tomorrow in the browser's local time, as the date input wants it. */
function tomorrow(): string {
  const date = new Date(Date.now() + 24 * 60 * 60 * 1000);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
}

async function scheduleFromMeetingsPage(page: Page, board: Board, title: string, shot: string) {
  await page.goto("/meetings");
  await page.getByRole("heading", { level: 1, name: "Board Meetings" }).waitFor();
  await page.getByRole("button", { name: "New Meeting" }).click();
  const dialog = page.getByRole("dialog", { name: "Schedule New Board Meeting" });
  await dialog.waitFor();

  // The form's defaults.
  expect(await dialog.getByLabel("Location").inputValue()).toBe("Virtual (Zoom)");
  expect(await dialog.getByRole("checkbox", { name: "Send notifications to participants" }).getAttribute("aria-checked")).toBe("true");

  // Generating without a title asks for one first.
  await dialog.getByRole("button", { name: "Generate with AI" }).click();
  await dialog.getByText("Please provide a meeting title first").waitFor();

  await dialog.getByLabel("Meeting title").fill(title);
  await dialog.getByLabel("Date").fill(tomorrow());
  await dialog.getByLabel("Time").fill("10:30");
  const [first, second] = board.members;
  await dialog.getByRole("checkbox", { name: new RegExp(`${first!.firstName} ${first!.lastName}`) }).click();
  await dialog.getByRole("checkbox", { name: new RegExp(`${second!.firstName} ${second!.lastName}`) }).click();

  // No AI is configured on the e2e server: the standard agenda comes from the template, and the toast says so.
  await dialog.getByRole("button", { name: "Generate with AI" }).click();
  await page.getByText("Agenda generated").first().waitFor();
  await page.getByText("No AI service is configured, so a standard board agenda has been added to the meeting.").first().waitFor();
  const agenda = await dialog.getByLabel("Agenda").inputValue();
  expect(agenda.startsWith("1. Call to order and quorum (5 min)\n")).toBe(true);
  expect(agenda).toContain("\n\n2. Minutes of the last meeting (10 min)\n");
  expect(agenda).toMatch(/\d+\. Close of meeting \(5 min\)\n/);
  await expectAccessible(page);
  await screenshot(page, `${shot}-schedule-modal`);

  await dialog.getByRole("button", { name: "Schedule Meeting" }).click();
  await page.getByText("Meeting scheduled").first().waitFor();
  await dialog.waitFor({ state: "detached" });
}

async function seeItEverywhere(page: Page, board: Board, title: string, shot: string) {
  // Under Upcoming on /meetings, with its badge.
  const upcoming = page.getByRole("tabpanel", { name: "Upcoming" });
  const row = upcoming.getByRole("link", { name: new RegExp(title) });
  await row.waitFor();
  await row.getByText("Pending").waitFor();
  await row.getByText("2 participants").waitFor();
  await checkScreen(page, `${shot}-meetings`);

  // On the dashboard's Upcoming Meetings panel.
  await page.goto("/");
  const panelRow = page.getByRole("link", { name: new RegExp(title) });
  await panelRow.waitFor();
  await panelRow.getByText("2 participants").waitFor();
  expect(await panelRow.textContent()).toMatch(/[A-Z][a-z]+ \d{1,2}, \d{4} • 10:30 AM - 12:30 PM/);
  await checkScreen(page, `${shot}-dashboard`);

  // The detail page and its agenda.
  await panelRow.click();
  await page.getByRole("heading", { level: 1, name: title }).waitFor();
  await page.getByText("10:30 AM - 12:30 PM").waitFor();
  await page.getByText("Virtual (Zoom)").waitFor();
  await page.getByText("2 attendees").waitFor();
  await checkScreen(page, `${shot}-detail`);
  await page.getByRole("button", { name: "View Agenda" }).click();
  const agenda = page.getByRole("dialog", { name: "Agenda" });
  await agenda.getByText(/1\. Call to order and quorum \(5 min\)/).waitFor();
  await agenda.getByText(/Close of meeting/).waitFor();
  await expectAccessible(page);
  await screenshot(page, `${shot}-agenda`);
  await page.keyboard.press("Escape");
  await agenda.waitFor({ state: "detached" });

  // 'Join Meeting' offers the calendar file for a location that is not a link; the file is served with the session cookie.
  await page.getByRole("button", { name: "Join Meeting" }).click();
  const join = page.getByRole("dialog", { name: "Join Meeting" });
  const href = await join.getByRole("link", { name: "Add to calendar (.ics)" }).getAttribute("href");
  const ics = await page.evaluate(async (url) => (await fetch(url!)).text(), href);
  expect(ics).toContain("BEGIN:VEVENT");
  expect(ics).toContain(`SUMMARY:${title}`);
  await page.keyboard.press("Escape");

  // Each participant has an unread notification (the bell in the header).
  const invited = await apiAs<{ title: string }[]>(await memberSession(board.members[0]!), "GET", "/api/notifications");
  expect(invited.map((notification) => notification.title)).toContain(`Meeting scheduled: ${title}`);
}

describe("meetings in the browser", () => {
  for (const [label, viewport] of viewports) {
    it(`schedules a meeting with two participants and a template agenda, then finds it everywhere (${label} px)`, async () => {
      const board = await boardWithMembers();
      const page = await browser.signedInPage(board.founder, { viewport, awaitWelcome: true });
      const title = uniqueName(`Board Meeting ${label} `);

      await scheduleFromMeetingsPage(page, board, title, `meetings-${label}`);
      await seeItEverywhere(page, board, title, `meetings-${label}`);

      // A meeting id that names nothing.
      await page.goto("/meetings/999999");
      await page.getByRole("heading", { level: 1, name: "Meeting not found" }).waitFor();
      await page.getByText("The meeting you're looking for doesn't exist.").waitFor();
      await screenshot(page, `meetings-${label}-not-found`);
    });
  }
});
