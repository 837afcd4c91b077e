import { boardWithMembers, scheduleMeetingThroughApi, uniqueName } from "./set-up";
import { checkScreen, isDarkTheme, useBrowser, viewports } from "./support";

const browser = useBrowser();

/** Every screen a board member uses, in dark mode, passes axe (contrast included) and fits the width. */
describe("dark mode", () => {
  for (const [label, viewport] of viewports) {
    it(`keeps every main screen readable at ${label} px`, async () => {
      const board = await boardWithMembers();
      const start = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000);
      const title = uniqueName("Dark Board Meeting ");
      const meeting = await scheduleMeetingThroughApi(board, { title, start });

      const page = await browser.signedInPage(board.founder, { viewport, darkMode: true });
      await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
      expect(await isDarkTheme(page)).toBe(true);

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
        await checkScreen(page, `dark-${name}-${label}`);
      }
    });
  }
});
