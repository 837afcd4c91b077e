import {
  apiAs,
  boardWithMembers,
  expectAccessible,
  expectNoHorizontalScroll,
  openPage,
  scheduleMeetingThroughApi,
  screenshot,
  signIn,
  THEME_STORAGE_KEY,
  uniqueName,
  useBrowser,
  viewports,
} from "./support";

const browser = useBrowser();

/** Every screen a board member uses, in dark mode, passes axe (contrast included) and fits the width. */
describe("dark mode", () => {
  for (const [label, viewport] of viewports) {
    it(`keeps every main screen readable at ${label} px`, async () => {
      const board = await boardWithMembers();
      const start = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000);
      const title = uniqueName("Dark Board Meeting ");
      const meeting = await scheduleMeetingThroughApi(board, { title, start });

      const { page } = await openPage(browser(), viewport);
      // Dark Mode is the user's preference, kept on the server (it wins after sign-in) and in the browser (first paint).
      await apiAs(board.founder, "PUT", `/api/users/${board.founder.id}/preferences`, { darkMode: true });
      await page.addInitScript((key) => localStorage.setItem(key, "dark"), THEME_STORAGE_KEY);
      await signIn(page, board.founder);
      await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
      expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);

      const screens: [string, string, string][] = [
        ["/", "Dashboard", "dashboard"],
        ["/meetings", "Board Meetings", "meetings"],
        [`/meetings/${meeting.id}`, title, "meeting-detail"],
        ["/board-members", "Board Members", "board-members"],
        ["/company-settings", "Company Settings", "company-settings"],
        ["/company-onboarding", "Set up your company", "onboarding"],
        ["/admin-portal", "Admin Portal", "admin-portal"],
      ];
      for (const [path, heading, name] of screens) {
        await page.goto(path);
        await page.getByRole("heading", { level: 1, name: heading }).waitFor();
        await page.waitForLoadState("networkidle");
        await expectNoHorizontalScroll(page);
        await expectAccessible(page);
        await screenshot(page, `dark-${name}-${label}`);
      }
    });
  }
});
