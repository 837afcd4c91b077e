import type { Page } from "playwright-core";
import { registerAccount, uniqueName } from "./set-up";
import {
  AUTH_TOKEN_KEY,
  addVirtualAuthenticator,
  checkScreen,
  confirmItsYou,
  desktop,
  expectAccessible,
  mobile,
  screenshot,
  signIn,
  useBrowser,
  useOwnServer,
} from "./support";

// Passkeys with Chromium's own virtual authenticator (the DevTools protocol's WebAuthn domain): the browser creates
// and signs with real credentials, nothing is mocked. A passkey's RP ID is the host name of the app's address, and
// Chromium refuses an IP address as one, so this file runs its own server whose address is http://localhost:<port>
// (the shared server of the run is at 127.0.0.1).

const browser = useBrowser();
const ownServer = useOwnServer();

/** A page of this file's server with a virtual platform authenticator that verifies its user. */
async function pageWithAuthenticator(viewport: { width: number; height: number }) {
  const tracked = await browser.openPage(viewport);
  const credentials = await addVirtualAuthenticator(tracked.page);
  return { ...tracked, credentials };
}

async function openSecurity(page: Page) {
  await page.goto(`${ownServer.origin()}/settings`);
  await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
  await page.getByRole("tab", { name: "Security" }).click();
  await page.getByRole("heading", { level: 2, name: "Passkeys" }).waitFor();
  await page.getByText("You have no passkeys yet.").waitFor();
}

/** Adds a passkey from Settings → Security: the password is asked first, and no credential exists until it is given. */
async function addPasskey(page: Page, name: string, credentials: () => Promise<unknown[]>, shot: string) {
  const before = (await credentials()).length;
  await page.getByLabel("Name of the new passkey").fill(name);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  // A sign-in alone is no fresh proof: the dialog asks, and the browser is not asked for a passkey before it is answered.
  await page.getByRole("dialog", { name: "Confirm it's you" }).waitFor();
  expect(await credentials()).toHaveLength(before);
  await checkScreen(page, shot);
  await confirmItsYou(page, "board-password-1");
  await page.getByText("Passkey added").first().waitFor();
  await page.getByRole("list", { name: "Your passkeys" }).getByText(name).waitFor();
}

describe("passkeys", () => {
  it("registers a passkey in Settings → Security, signs out, and signs in with the passkey alone", async () => {
    const account = await registerAccount({ username: uniqueName("passkey"), firstName: "Robin", lastName: "Keyes" });
    const { page, credentials } = await pageWithAuthenticator(desktop);
    await signIn(page, account, { from: `${ownServer.origin()}/`, awaitWelcome: true });
    await openSecurity(page);

    // An empty name is refused in place, without asking the browser.
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByText("Name the passkey, e.g. the device it is on").waitFor();
    expect(await credentials()).toHaveLength(0);

    await addPasskey(page, "This laptop", credentials, "passkeys-confirm-its-you-1280");
    const [credential] = await credentials();
    expect(credential).toMatchObject({ isResidentCredential: true, rpId: "localhost" });
    await page.getByText(/never used/).waitFor();
    await page.getByRole("heading", { level: 2, name: "Passkeys" }).scrollIntoViewIfNeeded();
    await expectAccessible(page);
    await screenshot(page, "passkeys-settings-1280");

    await page.getByRole("button", { name: "Logout" }).click();
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    expect(await page.evaluate((key) => localStorage.getItem(key), AUTH_TOKEN_KEY)).toBeNull();

    // No username, no password: the browser offers the passkey it holds for this site.
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.getByText("Login successful").first().waitFor();
    await page.getByText(`Welcome, ${account.firstName}!`).first().waitFor();
    expect(await page.evaluate((key) => localStorage.getItem(key), AUTH_TOKEN_KEY)).toMatch(/^[\w-]{43}$/);

    await openSettingsAgain(page);
    await page
      .getByRole("list", { name: "Your passkeys" })
      .getByText(/last used/)
      .waitFor();
    expect((await credentials())[0]?.signCount).toBeGreaterThan(0);
  });

  it("at 375 px adds and removes a passkey, with a confirmation, and fits the screen", async () => {
    const account = await registerAccount({ username: uniqueName("passkey"), firstName: "Robin", lastName: "Keyes" });
    const { page, credentials } = await pageWithAuthenticator(mobile);
    await signIn(page, account, { from: `${ownServer.origin()}/`, awaitWelcome: true });
    await openSecurity(page);
    await addPasskey(page, "Phone", credentials, "passkeys-confirm-its-you-375");
    expect(await credentials()).toHaveLength(1);
    await page.getByRole("heading", { level: 2, name: "Passkeys" }).scrollIntoViewIfNeeded();
    await checkScreen(page, "passkeys-settings-375");

    await page.getByRole("button", { name: "Remove passkey Phone" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Remove the passkey?" });
    await dialog.waitFor();
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Remove passkey" }).click();
    await page.getByText("Passkey removed").first().waitFor();
    await page.getByText("You have no passkeys yet.").waitFor();
  });
});

async function openSettingsAgain(page: Page) {
  await page.goto(`${ownServer.origin()}/settings`);
  await page.getByRole("tab", { name: "Security" }).click();
  await page.getByRole("heading", { level: 2, name: "Passkeys" }).waitFor();
}
