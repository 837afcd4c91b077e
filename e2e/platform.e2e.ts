import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";
import {
  apiAs,
  authenticatorThroughApi,
  baseURL,
  codeAfter,
  createActiveCompany,
  logInThroughApi,
  platformAdmin,
  registerAccount,
  uniqueName,
  type Account,
} from "./set-up";
import {
  AUTH_TOKEN_KEY,
  choose,
  desktop,
  expectAccessible,
  expectNoHorizontalScroll,
  mobile,
  screenshot,
  signIn,
  THEME_STORAGE_KEY,
  useBrowser,
} from "./support";

const browser = useBrowser();

/** The platform admin's session: service keys change only from one that passed a second factor. */
let admin: { token: string };

/** Turns the admin's authenticator app on through the API and signs in with it in two steps (set-up only). */
beforeAll(async () => {
  const withPassword = await logInThroughApi(platformAdmin());
  const { app, usedStep } = await authenticatorThroughApi({ ...withPassword, password: platformAdmin().password });
  const post = (path: string, body: object) =>
    fetch(`${baseURL()}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const { challenge } = (await (await post("/api/auth/login", platformAdmin())).json()) as { challenge: string };
  // The code that confirmed the app is spent; a later step's is accepted already (one step either side of now).
  const signedIn = await post("/api/auth/login/second-factor", { challenge, code: (await codeAfter(app, usedStep)).code });
  if (!signedIn.ok) throw new Error(`second step failed: ${signedIn.status}`);
  admin = { token: ((await signedIn.json()) as { token: string }).token };
});

/** Opens the app in the page as the admin's session that passed the second factor (the two-step form has tests of its own). */
async function signInAsAdmin(page: Page): Promise<void> {
  await page.addInitScript(([key, token]) => localStorage.setItem(key, token), [AUTH_TOKEN_KEY, admin.token] as const);
  await page.goto("/");
}

/** Every body the browser received from /api/platform/settings, to prove no key ever arrives in full. */
function recordPlatformResponses(page: Page): string[] {
  const bodies: string[] = [];
  page.on("response", async (response) => {
    if (!new URL(response.url()).pathname.startsWith("/api/platform/settings")) return;
    try {
      bodies.push(await response.text());
    } catch {
      // A 204 has no body to read.
    }
  });
  return bodies;
}

const card = (page: Page, name: string) =>
  page.getByTestId("service-card").filter({ has: page.getByRole("heading", { name, exact: true }) });

describe("platform administration in the browser", () => {
  it("adds, edits, disables and removes a service on /platform-settings, and sees it on /admin-settings", async () => {
    const { page } = await browser.openPage(desktop);
    const bodies = recordPlatformResponses(page);
    const key = `custom-e2e-${randomBytes(16).toString("hex")}`;
    const keyTail = key.slice(8);

    await signInAsAdmin(page);
    await page.goto("/platform-settings");
    await page.getByRole("heading", { level: 1, name: "Platform Settings" }).waitFor();
    await page.getByText("These settings are for platform administrators only.", { exact: false }).waitFor();

    // Add.
    await page.getByRole("button", { name: "Add Service", exact: true }).click();
    const addDialog = page.getByRole("dialog", { name: "Add New Service" });
    await addDialog.waitFor();
    await choose(addDialog, "Service Type", "Email Messaging (Twilio)");
    // The messaging type relabels the key and turns the URL into a masked Auth Token.
    await addDialog.getByLabel("API Key / SID").waitFor();
    expect(await addDialog.getByLabel("Auth Token / API Secret").getAttribute("type")).toBe("password");
    await choose(addDialog, "Service Type", "Custom Service");
    await addDialog.getByLabel("API Key", { exact: true }).fill(key);
    await addDialog.getByLabel("Service URL").fill("https://custom.example.com/api");
    await addDialog.getByLabel("Description").fill("Added by the e2e flow");
    await expectAccessible(page);
    await screenshot(page, "platform-settings-dialog-1280");
    await addDialog.getByRole("button", { name: "Add Service" }).click();
    await page.getByText("Service added").first().waitFor();
    await addDialog.waitFor({ state: "detached" });

    const custom = card(page, "Custom");
    await custom.waitFor();
    await custom.getByText(`${key.slice(0, 8)}…`).waitFor();
    await custom.getByText("Enabled", { exact: true }).waitFor();
    await custom.getByText("https://custom.example.com/api").waitFor();
    expect(await page.content()).not.toContain(keyTail);
    await expectAccessible(page);
    await screenshot(page, "platform-settings-1280");

    // Edit: a new description, the masked key left as it is.
    await custom.getByRole("button", { name: "Edit Custom" }).click();
    const editDialog = page.getByRole("dialog", { name: "Edit Service" });
    await editDialog.waitFor();
    expect(await editDialog.getByLabel("API Key", { exact: true }).inputValue()).toBe(`${key.slice(0, 8)}…`);
    await editDialog.getByLabel("Description").fill("Edited by the e2e flow");
    await editDialog.getByRole("button", { name: "Update Service" }).click();
    await page.getByText("Service updated").first().waitFor();
    await custom.getByText("Edited by the e2e flow").waitFor();

    // Disable.
    await custom.getByRole("button", { name: "Edit Custom" }).click();
    await editDialog.waitFor();
    await editDialog.getByRole("switch", { name: "Enable Service" }).click();
    await editDialog.getByRole("button", { name: "Update Service" }).click();
    await page.getByText("Service updated").first().waitFor();
    await custom.getByText("Disabled", { exact: true }).waitFor();

    // The sidebar's Platform Settings entry leads to /admin-settings, where the service is in the table.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Platform Settings" }).click();
    await page.waitForURL("**/admin-settings");
    await page.getByRole("heading", { level: 1, name: "Admin Settings" }).waitFor();
    const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "Custom", exact: true }) });
    await row.waitFor();
    await row.getByText(`${key.slice(0, 8)}…`).waitFor();
    await row.getByText("Disabled", { exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "admin-settings-1280");

    await page.goto("/admin-portal");
    await page.getByRole("heading", { level: 1, name: "Admin Portal" }).waitFor();
    await page.getByRole("rowheader", { name: "Custom", exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "admin-portal-1280");

    // Remove, after the confirmation.
    await page.goto("/platform-settings");
    await card(page, "Custom").getByRole("button", { name: "Remove Custom" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Are you sure you want to delete this service?" });
    await confirm.waitFor();
    await confirm.getByRole("button", { name: "Remove" }).click();
    await page.getByText("Service removed").first().waitFor();
    await card(page, "Custom").waitFor({ state: "detached" });

    expect(bodies.length).toBeGreaterThan(3);
    for (const body of bodies) expect(body).not.toContain(keyTail);
  });

  it("fits 375 px: Platform Settings, Admin Settings and Admin Portal, light and dark", async () => {
    const adminId = (await apiAs<{ id: number }>(admin, "GET", "/api/auth/user")).id;
    const name = uniqueName("Mobile check ");
    const created = await apiAs<{ id: number }>(admin, "POST", "/api/platform/settings", {
      serviceName: name,
      serviceKey: `sk-mobile-${randomBytes(12).toString("hex")}`,
      serviceUrl: "https://a-rather-long-hostname-for-a-small-screen.example.com/v1/endpoint",
      description: "A service shown on a phone",
    });
    try {
      const { page } = await browser.openPage(mobile);
      await signInAsAdmin(page);
      for (const [path, heading, shot] of [
        ["/platform-settings", "Platform Settings", "platform-settings-375"],
        ["/admin-settings", "Admin Settings", "admin-settings-375"],
        ["/admin-portal", "Admin Portal", "admin-portal-375"],
      ] as const) {
        await page.goto(path);
        await page.getByRole("heading", { level: 1, name: heading }).waitFor();
        await page.getByText(name).first().waitFor();
        await screenshot(page, shot);
        await expectNoHorizontalScroll(page);
        await expectAccessible(page);
      }

      // The Admin Portal's tab list starts on screen: its first tab is whole, not cut off at the left edge.
      await page.goto("/admin-portal");
      await page.getByRole("heading", { level: 1, name: "Admin Portal" }).waitFor();
      const firstTab = await page
        .getByRole("tablist")
        .getByRole("tab")
        .first()
        .evaluate((tab) => {
          const box = tab.getBoundingClientRect();
          const list = tab.closest('[role="tablist"]')!.getBoundingClientRect();
          return { left: box.left, right: box.right, listLeft: list.left, listRight: list.right };
        });
      expect(firstTab.left).toBeGreaterThanOrEqual(0);
      expect(firstTab.right).toBeLessThanOrEqual(mobile.width);
      // Nor is it hidden under the list's own scroll edge.
      expect(firstTab.left).toBeGreaterThanOrEqual(firstTab.listLeft);
      expect(firstTab.right).toBeLessThanOrEqual(firstTab.listRight);

      await page.goto("/platform-settings");
      await page.getByRole("button", { name: `Edit ${name}` }).click();
      await page.getByRole("dialog", { name: "Edit Service" }).waitFor();
      // Let the opening animation finish so the picture shows the dialog as people see it.
      await page.waitForFunction(() => {
        const dialog = document.querySelector('[role="dialog"]');
        return dialog !== null && getComputedStyle(dialog).opacity === "1";
      });
      await expectNoHorizontalScroll(page);
      await screenshot(page, "platform-settings-dialog-375");
      await page.keyboard.press("Escape");

      // Dark Mode is the user's preference on the server (it wins after sign-in); put back afterwards, the admin is shared.
      await apiAs(admin, "PUT", `/api/users/${adminId}/preferences`, { darkMode: true });
      await page.evaluate((key) => localStorage.setItem(key, "dark"), THEME_STORAGE_KEY);
      await page.reload();
      await page.getByText(name).first().waitFor();
      await page.waitForFunction(() => document.documentElement.classList.contains("dark"));
      await expectAccessible(page);
      await screenshot(page, "platform-settings-375-dark");
    } finally {
      await apiAs(admin, "PUT", `/api/users/${adminId}/preferences`, { darkMode: false });
      await apiAs(admin, "DELETE", `/api/platform/settings/${created.id}`);
    }
  });

  it("keeps a plain user out: /platform-settings redirects to /dashboard, /admin-settings shows Access Denied", async () => {
    const account: Account = await registerAccount();
    // A company of their own, so /dashboard is where they stay (a user without one is sent to onboarding).
    await createActiveCompany(account, { name: uniqueName("Plain Co "), location: "Leeds, United Kingdom" });

    const { page } = await browser.openPage(desktop);
    const bodies = recordPlatformResponses(page);
    await signIn(page, account, { awaitWelcome: true });

    await page.goto("/platform-settings");
    await page.waitForURL("**/dashboard");
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    expect(await page.getByRole("link", { name: "Platform Settings" }).count()).toBe(0);

    await page.goto("/admin-settings");
    await page.getByRole("heading", { level: 1, name: "Access Denied" }).waitFor();
    await page.getByText("You don't have permission to access the admin settings.").waitFor();
    await expectAccessible(page);
    await screenshot(page, "admin-settings-denied-1280");

    // As founder of their company they may open the Admin Portal, but the services are not theirs to see.
    await page.goto("/admin-portal");
    await page.getByRole("heading", { level: 1, name: "Admin Portal" }).waitFor();
    await page.getByText("are managed by platform administrators", { exact: false }).waitFor();
    expect(await page.getByRole("table").count()).toBe(0);
    await screenshot(page, "admin-portal-founder-1280");

    // And the API answers them 403 all the same.
    const direct = await fetch(`${baseURL()}/api/platform/settings`, { headers: { Authorization: `Bearer ${account.token}` } });
    expect(direct.status).toBe(403);
    expect(bodies).toEqual([]);
  });
});
