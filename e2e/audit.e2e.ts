import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { apiAs, boardWithMembers, memberCredentials, scheduleMeetingThroughApi, uniqueName } from "./set-up";
import { checkScreen, choose, expectAccessible, isDarkTheme, useBrowser, viewports } from "./support";

const browser = useBrowser();

describe("Company Settings → Audit log", () => {
  it.each(viewports)(
    "a founder filters the log, verifies the chain and exports it for offline verification (%s px)",
    async (label, viewport) => {
      const board = await boardWithMembers();
      const title = uniqueName("Strategy day ");
      await scheduleMeetingThroughApi(board, { title, start: new Date(Date.now() + 7 * 24 * 60 * 60 * 1000) });
      await apiAs(board.founder, "PUT", `/api/companies/${board.companyId}/quorum`, { quorumPercent: 75 });

      const page = await browser.signedInPage(board.founder, { viewport, awaitWelcome: true });
      await page.goto("/company-settings");
      await page.getByRole("tab", { name: "Audit log" }).click();
      const events = page.getByRole("list", { name: "Audit events" });
      await events.getByText("Meeting scheduled").waitFor();
      expect(await events.getByRole("listitem").count()).toBeGreaterThanOrEqual(6);
      const head = (await page.getByTestId("audit-head-hash").textContent())!.trim();
      expect(head).toMatch(/^[0-9a-f]{64}$/);
      await checkScreen(page, `audit-${label}`);

      // Filters: one action, then one actor.
      await choose(page, "Action", "Quorum changed");
      await events.getByText(/→ 75$/).waitFor();
      expect(await events.getByRole("listitem").count()).toBe(1);
      await page.getByRole("button", { name: "Clear filters" }).click();
      // A member's only event is their own joining by invitation: the founder's events (the meeting, the quorum) go.
      await choose(page, "Actor", "Avery Director");
      await events.getByText("Member joined").waitFor();
      const averysEvents = events.getByRole("listitem");
      expect(await averysEvents.count()).toBe(1);
      expect(await averysEvents.textContent()).toContain("Avery Director");
      await page.getByRole("button", { name: "Clear filters" }).click();
      await events.getByText("Meeting scheduled").waitFor();

      await page.getByRole("button", { name: "Verify" }).click();
      const verdict = page.getByRole("status").filter({ hasText: "Chain verified" });
      await verdict.waitFor();
      const count = Number(/Chain verified: (\d+) events/.exec((await verdict.textContent())!)![1]);
      expect(count).toBeGreaterThanOrEqual(6);
      await expectAccessible(page);

      // The export, with the session cookie, ends at the head shown; the offline script accepts it.
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export" }).click()]);
      expect(download.suggestedFilename()).toMatch(/-audit-\d{4}-\d{2}-\d{2}\.jsonl$/);
      const file = await download.path();
      const lines = readFileSync(file, "utf8").trim().split("\n");
      expect(JSON.parse(lines.at(-1)!)).toEqual({ headHash: head, count });
      const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/ops/audit.ts", "verify", file]);
      expect(stdout).toBe(`ok: ${count} events, head ${head}\n`);

      // Dark mode reads as well.
      const dark = await browser.signedInPage(board.founder, { viewport, darkMode: true, awaitWelcome: true });
      await dark.goto("/company-settings");
      await dark.getByRole("tab", { name: "Audit log" }).click();
      await dark.getByRole("list", { name: "Audit events" }).getByText("Meeting scheduled").waitFor();
      await dark.getByRole("button", { name: "Verify" }).click();
      await dark.getByText(`Chain verified: ${count} events`).waitFor();
      expect(await isDarkTheme(dark)).toBe(true);
      await checkScreen(dark, `audit-${label}-dark`);
    },
  );

  it("is not offered to a member", async () => {
    const board = await boardWithMembers();
    const page = await browser.signedInPage(memberCredentials(board.members[0]!), { awaitWelcome: true });
    await page.goto("/company-settings");
    await page.waitForURL((url) => url.pathname === "/");
    expect(await page.getByRole("tab", { name: "Audit log" }).count()).toBe(0);
  });
});
