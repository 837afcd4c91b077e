import { registerAccount, uniqueName } from "./set-up";
import {
  AUTH_TOKEN_KEY,
  expectAccessible,
  expectNoHorizontalScroll,
  mobile,
  registerThroughForm,
  screenshot,
  settled,
  signIn,
  useBrowser,
} from "./support";

const browser = useBrowser();

describe("accounts in the browser", () => {
  it("registers through the form, lands on onboarding, logs out and back in", async () => {
    const { page } = await browser.openPage();
    const username = uniqueName("director");

    await page.goto("/");
    await page.getByRole("link", { name: /register/i }).click();
    await page.waitForURL("**/register");
    await expectAccessible(page);
    await screenshot(page, "register-1280");

    // Validation messages appear before anything is sent.
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("Username must be at least 3 characters").waitFor();

    await registerThroughForm(page, { firstName: "Morgan", lastName: "Chair", username, password: "board-password-1" });

    await page.waitForURL("**/company-onboarding");
    await page.getByText("Registration successful").first().waitFor();
    expect(await page.evaluate((key) => localStorage.getItem(key), AUTH_TOKEN_KEY)).toBeTruthy();

    // Logout from the sidebar returns to sign-in and forgets the token.
    await page.getByRole("button", { name: "Logout" }).click();
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await page.evaluate((key) => localStorage.getItem(key), AUTH_TOKEN_KEY)).toBeNull();
    await expectAccessible(page);
    await screenshot(page, "sign-in-1280");

    await signIn(page, { username, password: "board-password-1" }, { awaitWelcome: true });
    await page.getByText("Welcome, Morgan!").first().waitFor();
    // A user with no company is sent to onboarding.
    await page.waitForURL("**/company-onboarding");

    await page.goto("/no-such-page");
    await page.getByText("404 Page Not Found").waitFor();
    await page.getByText("Did you forget to add the page to the router?").waitFor();
    await screenshot(page, "not-found-1280");
  });

  it("tells a wrong password apart from nothing: the failure toast", async () => {
    const account = await registerAccount();
    const { page } = await browser.openPage();
    await signIn(page, { username: account.username, password: "not-the-password" });
    await page.getByText("Login failed").first().waitFor();
    await page.getByText("Invalid username or password. Please try again.").first().waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
  });

  it("returns to the page a signed-out visitor asked for, after sign-in", async () => {
    const account = await registerAccount();
    const { page } = await browser.openPage();
    // An e-mailed link to a signed-in page shows sign-in in place, then the page itself.
    await signIn(page, account, { from: "/settings" });
    await page.waitForURL("**/settings");
  });

  it("at 375 px opens the mobile menu with exactly its seven entries", async () => {
    const account = await registerAccount();
    const { page } = await browser.openPage(mobile);
    await page.goto("/");
    await expectNoHorizontalScroll(page);
    await screenshot(page, "sign-in-375");
    await signIn(page, account);
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("dialog");
    await menu.waitFor();
    const entries = await menu.locator("a, button:not([aria-label='Close'])").allInnerTexts();
    expect(entries.map((text) => text.trim()).filter(Boolean)).toEqual([
      "Dashboard",
      "Meetings",
      "Documents",
      "Resolutions",
      "Board Members",
      "Settings",
      "Logout",
    ]);
    await settled(page); // the slide-over has finished its animation before the picture
    await screenshot(page, "mobile-menu-375");
    await expectAccessible(page);
    await page.keyboard.press("Escape");
    await expectNoHorizontalScroll(page);
  });
});
