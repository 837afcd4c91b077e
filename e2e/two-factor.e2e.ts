import * as OTPAuth from "otpauth";
import type { Page } from "playwright-core";
import {
  apiAs,
  authenticatorApp,
  authenticatorThroughApi,
  baseURL,
  codeAfter,
  confirmItsYou,
  createActiveCompany,
  expectAccessible,
  expectNoHorizontalScroll,
  joinByInvitation,
  openPage,
  registerAccount,
  screenshot,
  signIn,
  THEME_STORAGE_KEY,
  totpStep,
  uniqueName,
  useBrowser,
  viewports,
  type Account,
} from "./support";

const browser = useBrowser();

/** An account with a company of its own, so it lands on the dashboard. */
async function founder(): Promise<Account> {
  const account = await registerAccount({ firstName: "Robin", lastName: "Secure" });
  await createActiveCompany(account, { name: uniqueName("Two-factor Board "), location: "Bristol, United Kingdom" });
  return account;
}

/**
 * Sets up the authenticator app on the two-factor card showing at `page` (Settings → Security, or the screen of a
 * company that requires it), screenshots each step under `name`, and answers the app, the code that confirmed it and its step.
 */
async function setUpAuthenticator(
  page: Page,
  name: string,
): Promise<{ app: OTPAuth.TOTP; used: string; usedStep: number; recoveryCodes: string[] }> {
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  // A sign-in alone is no fresh proof: the password is asked first.
  await confirmItsYou(page, "board-password-1");
  await page.getByRole("img", { name: "QR code to scan with your authenticator app" }).waitFor();
  // The QR code is drawn: the image has loaded and has a size.
  await page.waitForFunction(() => {
    const image = document.querySelector<HTMLImageElement>('img[alt="QR code to scan with your authenticator app"]');
    return image?.complete === true && image.naturalWidth > 0;
  });
  // The key as the screen shows it, in groups of four.
  const shown = await page.getByTestId("totp-secret").innerText();
  expect(shown).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
  const app = authenticatorApp(shown.replace(/\s+/g, ""));
  await expectNoHorizontalScroll(page);
  await expectAccessible(page);
  await screenshot(page, `${name}-setup`);

  const now = Date.now();
  const used = app.generate({ timestamp: now });
  const usedStep = totpStep(now);
  await page.getByLabel("Code from the app").fill(used);
  await page.getByRole("button", { name: "Verify" }).click();
  const list = page.getByRole("list", { name: "Recovery codes" });
  await list.waitFor();
  const recoveryCodes = await list.getByRole("listitem").allInnerTexts();
  expect(recoveryCodes).toHaveLength(10);
  for (const code of recoveryCodes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
  await expectNoHorizontalScroll(page);
  await expectAccessible(page);
  await screenshot(page, `${name}-recovery-codes`);

  // The codes download as a text file.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download .txt" }).click()]);
  expect(download.suggestedFilename()).toBe("quorum-recovery-codes.txt");

  await page.getByRole("button", { name: "I have saved these codes" }).click();
  return { app, used, usedStep, recoveryCodes };
}

/** Signs out from the sidebar, or from the menu on a phone. */
async function logOut(page: Page): Promise<void> {
  const menu = page.getByRole("button", { name: "Open menu" });
  if (await menu.isVisible()) {
    await menu.click();
    await page.getByRole("dialog").getByRole("button", { name: "Logout" }).click();
  } else {
    await page.getByRole("button", { name: "Logout" }).click();
  }
  await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
}

/** Password first; the second step is shown (no session yet). */
async function passwordThenSecondStep(page: Page, account: Account, name: string): Promise<void> {
  await signIn(page, account);
  await page.getByRole("form", { name: "Two-factor sign-in" }).waitFor();
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("autocomplete"))).toBe("one-time-code");
  await expectNoHorizontalScroll(page);
  await expectAccessible(page);
  await screenshot(page, `${name}-second-step`);
}

describe("two-factor sign-in with an authenticator app", () => {
  for (const [label, viewport] of viewports) {
    it(`sets it up in Settings → Security and signs in with it at ${label} px`, async () => {
      const account = await founder();
      const { page } = await openPage(browser(), viewport);
      await signIn(page, account, { awaitWelcome: true });
      await page.goto("/settings");
      await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
      await page.getByRole("tab", { name: "Security" }).click();
      await page.getByRole("heading", { level: 2, name: "Two-factor sign-in" }).waitFor();
      await page.waitForLoadState("networkidle");

      const { app, used, usedStep, recoveryCodes } = await setUpAuthenticator(page, `two-factor-${label}`);
      await page.getByText("Two-factor sign-in is on.").waitFor();

      await logOut(page);
      await passwordThenSecondStep(page, account, `two-factor-${label}`);

      if (label === "1280") {
        // A wrong code is said in the form, and the step stays.
        await page.getByLabel("Authentication code").fill(used === "000000" ? "111111" : "000000");
        await page.getByRole("button", { name: "Verify" }).click();
        await page.getByRole("alert").getByText("Invalid code").waitFor();

        // The code that confirmed the app is spent: it is refused, and the next step's signs in.
        await page.getByLabel("Authentication code").fill(used);
        const refused = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/auth/login/second-factor");
        await page.getByRole("button", { name: "Verify" }).click();
        expect((await refused).status()).toBe(401);
        await page.getByRole("alert").getByText("Invalid code").waitFor();
        await page.getByLabel("Authentication code").fill((await codeAfter(app, usedStep)).code);
      } else {
        await page.getByRole("button", { name: "Use a recovery code" }).click();
        await page.getByLabel("Recovery code").fill(recoveryCodes[0]!.toUpperCase());
      }
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByText("Login successful").first().waitFor();
      await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    });
  }

  it("signs in with the password alone once it is turned off, and a recovery code works once", async () => {
    const account = await founder();
    const { app, usedStep, recoveryCodes } = await authenticatorThroughApi(account);
    const { page } = await openPage(browser());

    // A recovery code signs in once.
    await signIn(page, account);
    await page.getByRole("button", { name: "Use a recovery code" }).click();
    await page.getByLabel("Recovery code").fill(recoveryCodes[1]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    await logOut(page);
    await signIn(page, account);
    await page.getByRole("button", { name: "Use a recovery code" }).click();
    await page.getByLabel("Recovery code").fill(recoveryCodes[1]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("alert").getByText("Invalid code").waitFor();

    // Back to the password step, then the next code from the app.
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    const next = await codeAfter(app, usedStep);
    await page.getByLabel("Authentication code").fill(next.code);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();

    // Turning it off asks for the password and a current (unused) code.
    await page.goto("/settings");
    await page.getByRole("tab", { name: "Security" }).click();
    await page.getByRole("button", { name: "Turn off" }).click();
    const form = page.getByRole("form", { name: "Turn off two-factor sign-in" });
    await form.getByLabel("Password").fill(account.password);
    await form.getByLabel("Code from the app").fill((await codeAfter(app, next.step)).code);
    await expectAccessible(page);
    await form.getByRole("button", { name: "Turn off" }).click();
    await page.getByText("Two-factor sign-in turned off").first().waitFor();
    await page.getByRole("button", { name: "Set up two-factor sign-in" }).waitFor();

    await logOut(page);
    await signIn(page, account, { awaitWelcome: true });
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
  });
});

describe("a company that requires two-factor sign-in", () => {
  for (const [label, viewport] of viewports) {
    it(`sends a member without one to set it up, then opens the company at ${label} px (dark)`, async () => {
      const chair = await founder();
      const [company] = await apiAs<{ id: number; name: string }[]>(chair, "GET", "/api/companies");
      const profile = { name: company!.name, industry: "Technology", location: "Bristol, United Kingdom", stage: "seed" };
      // Refused while the founder has no second factor of their own.
      const refused = await fetch(`${baseURL()}/api/companies/${company!.id}`, {
        method: "PUT",
        headers: { Authorization: `Bearer ${chair.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ ...profile, requireSecondFactor: true }),
      });
      expect(refused.status).toBe(400);
      await authenticatorThroughApi(chair);
      await apiAs(chair, "PUT", `/api/companies/${company!.id}`, { ...profile, requireSecondFactor: true });

      const email = `${uniqueName("member")}@example.com`;
      const member = await joinByInvitation(chair, company!.id, { email, firstName: "Sam", lastName: "Member", role: "member" });
      // Dark Mode is the member's own switch (kept on the server, which wins after sign-in) and the browser's first paint.
      await apiAs(member, "PUT", `/api/users/${member.id}/preferences`, { darkMode: true });

      const { page } = await openPage(browser(), viewport);
      await page.addInitScript((key) => localStorage.setItem(key, "dark"), THEME_STORAGE_KEY);
      await signIn(page, { username: email, password: "board-password-1" }, { awaitWelcome: true });
      await page.getByRole("heading", { level: 1, name: "Two-factor sign-in required" }).waitFor();
      await page.getByRole("heading", { level: 2, name: "Passkeys" }).waitFor();
      await page.waitForFunction(() => document.documentElement.classList.contains("dark"));
      await page.waitForLoadState("networkidle");
      await expectNoHorizontalScroll(page);
      await expectAccessible(page);
      await screenshot(page, `two-factor-required-dark-${label}`);

      await setUpAuthenticator(page, `two-factor-required-dark-${label}`);
      // The page comes back with its data.
      await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
      await page.getByRole("heading", { name: "Upcoming Meetings" }).waitFor();
      await page.getByText("No upcoming meetings scheduled.").waitFor();
      expect(await page.getByRole("heading", { level: 1, name: "Two-factor sign-in required" }).count()).toBe(0);
    });
  }
});
