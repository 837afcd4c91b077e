import type { Page } from "playwright-core";
import { apiAs, baseURL, createActiveCompany, registerAccount, uniqueName, type Account } from "./set-up";
import { expectAccessible, expectNoHorizontalScroll, isDarkTheme, mobile, screenshot, signIn, useBrowser, viewports } from "./support";

const browser = useBrowser();

/** An account with a company of its own, so every page of the app is open to it. */
async function founder(): Promise<Account> {
  const account = await registerAccount({ firstName: "Jordan", lastName: "Reed" });
  await createActiveCompany(account, { name: uniqueName("Settings Board "), location: "Leeds, United Kingdom" });
  return account;
}

async function openSettings(page: Page, tab?: string): Promise<void> {
  await page.goto("/settings");
  await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
  if (tab) {
    await page.getByRole("tab", { name: tab }).click();
    await page.getByRole("tabpanel", { name: tab }).waitFor();
  }
  await page.waitForLoadState("networkidle");
}

/** The calendar feed address shown on the Notifications tab, once it has loaded. */
async function feedAddress(page: Page): Promise<string> {
  const field = page.getByLabel("Calendar feed address");
  await field.waitFor();
  await expect.poll(() => field.inputValue()).toMatch(/^https?:\/\//);
  return field.inputValue();
}

describe("personal settings", () => {
  it("changes the name (the sidebar shows it at once) and the password (the new one signs in)", async () => {
    const account = await founder();
    const page = await browser.signedInPage(account, { awaitWelcome: true });
    await openSettings(page);
    await expectAccessible(page);
    await screenshot(page, "settings-profile-1280");

    await page.getByLabel("First name").fill("Morgan");
    await page.getByLabel("Last name").fill("Chair-Reed");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await page.getByText("Profile updated").first().waitFor();
    await page.getByTestId("user-block").getByText("Morgan Chair-Reed").waitFor();

    await page.getByRole("tab", { name: "Security" }).click();
    // This browser is listed as the current session.
    await page.getByRole("list", { name: "Active sessions" }).getByText("This device").waitFor();
    await page.getByLabel("Current password").fill(account.password);
    await page.getByLabel("New password", { exact: true }).fill("a-new-board-password");
    await page.getByLabel("Confirm new password").fill("a-new-board-password");
    await page.getByRole("button", { name: "Show password" }).nth(1).click();
    expect(await page.getByLabel("New password", { exact: true }).getAttribute("type")).toBe("text");
    await expectAccessible(page);
    await screenshot(page, "settings-security-1280");
    await page.getByRole("button", { name: "Update Password" }).click();
    await page.getByText("Your password has been successfully changed.").first().waitFor();

    await page.getByRole("button", { name: "Logout" }).click();
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    await signIn(page, { username: account.username, password: account.password });
    await page.getByText("Login failed").first().waitFor();
    await signIn(page, { username: account.username, password: "a-new-board-password" }, { awaitWelcome: true });
    await page.getByText("Welcome, Morgan!").first().waitFor();
  });

  it("keeps Dark Mode across a reload and brings it to a second browser after sign-in", async () => {
    const account = await founder();
    const page = await browser.signedInPage(account, { awaitWelcome: true });
    await openSettings(page, "Preferences");
    await expectAccessible(page);
    await screenshot(page, "settings-preferences-1280");
    expect(await isDarkTheme(page)).toBe(false);

    // Saved on the server, not only in this browser.
    const saved = page.waitForResponse(
      (response) => response.url().endsWith(`/api/users/${account.id}/preferences`) && response.request().method() === "PUT",
    );
    await page.getByRole("switch", { name: "Dark Mode" }).click();
    await page.waitForFunction(() => document.documentElement.classList.contains("dark"));
    expect((await saved).status()).toBe(200);
    await expectAccessible(page);
    await screenshot(page, "settings-preferences-dark-1280");

    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    expect(await isDarkTheme(page)).toBe(true);
    await page.getByRole("tab", { name: "Preferences" }).click();
    // The switches are disabled until the server's preferences arrive; then Dark Mode must read on.
    await page.getByRole("switch", { name: "Dark Mode", checked: true, disabled: false }).waitFor({ timeout: 5_000 });

    // Another browser (its own storage) signs in and turns dark from the server's preference.
    const second = await browser.signedInPage(account, { awaitWelcome: true });
    await second.waitForFunction(() => document.documentElement.classList.contains("dark"));
    await openSettings(second, "Notifications");
    await expectAccessible(second);
    await screenshot(second, "settings-notifications-dark-1280");

    // Compact View tightens the spacing everywhere: the sidebar's navigation entries come closer together.
    await openSettings(second, "Preferences");
    const entryHeight = () =>
      second
        .getByRole("link", { name: "Meetings" })
        .first()
        .evaluate((element) => element.getBoundingClientRect().height);
    const before = await entryHeight();
    await second.getByRole("switch", { name: "Compact View" }).click();
    await second.waitForFunction(() => document.documentElement.getAttribute("data-density") === "compact");
    expect(await entryHeight()).toBeLessThan(before);
    await expectAccessible(second);
    await screenshot(second, "settings-compact-dark-1280");
  });

  it("names icon-only buttons in a tooltip while Show Tooltips is on", async () => {
    const account = await founder();
    const page = await browser.signedInPage(account, { awaitWelcome: true });
    await openSettings(page);
    await page.getByRole("button", { name: "Notifications" }).hover();
    await page.getByRole("tooltip").filter({ hasText: "Notifications" }).waitFor({ timeout: 3000 });
    await page.mouse.move(0, 400);
    await page.getByRole("tooltip").waitFor({ state: "detached" });
  });

  it("resets the calendar feed link after confirmation: the old address stops answering, the new one serves the calendar", async () => {
    const account = await founder();
    const page = await browser.signedInPage(account, { awaitWelcome: true });
    await openSettings(page, "Notifications");
    const oldUrl = await feedAddress(page);
    expect((await fetch(oldUrl)).status).toBe(200);

    await page.getByRole("button", { name: "Reset link" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Reset the calendar link?" });
    await dialog.waitFor();
    await expectAccessible(page);
    await screenshot(page, "settings-calendar-reset-dialog-1280");
    await dialog.getByRole("button", { name: "Reset link" }).click();
    await page.getByText("Calendar link reset").first().waitFor();
    await expect.poll(() => feedAddress(page)).not.toBe(oldUrl);
    const newUrl = await feedAddress(page);

    expect((await fetch(oldUrl)).status).toBe(404);
    const fresh = await fetch(newUrl);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("content-type")).toMatch(/^text\/calendar/);
    expect(await fresh.text()).toContain("BEGIN:VCALENDAR");
  });

  for (const [label, viewport] of viewports) {
    it(`fits ${label} px and passes axe on every tab, light and dark`, async () => {
      const account = await founder();
      const page = await browser.signedInPage(account, { viewport, awaitWelcome: true });
      for (const theme of ["light", "dark"] as const) {
        if (theme === "dark") {
          await apiAs(account, "PUT", `/api/users/${account.id}/preferences`, { darkMode: true });
          await page.reload();
        }
        for (const tab of ["Profile", "Security", "Notifications", "Preferences"]) {
          await openSettings(page, tab);
          expect(await isDarkTheme(page)).toBe(theme === "dark");
          // The calendar feed card under the switches shows this user's subscribe address.
          if (tab === "Notifications") expect(await feedAddress(page)).toContain(`${baseURL()}/api/calendar-feed.ics?user=${account.id}&`);
          await expectNoHorizontalScroll(page);
          await expectAccessible(page);
          if (viewport === mobile || theme === "dark") await screenshot(page, `settings-${tab.toLowerCase()}-${theme}-${label}`);
        }
      }
    });
  }
});
