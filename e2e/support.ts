import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { chromiumLaunchOptions } from "../scripts/testing/chromium";
import { afterAll, afterEach, beforeAll, expect, vi } from "vitest";
import { startBuiltServer } from "../scripts/testing/built-server";
import { startSmtpCapture, type ReceivedMail } from "../server/src/testing/smtp-capture";
import {
  apiAs,
  authenticatorThroughApi,
  baseURL,
  registerAccount,
  setUpPassword,
  uniqueName,
  useApiOrigin,
  type Account,
  type Credentials,
} from "./set-up";

// The browser side of the flows: the browser and its pages, signing in through the form, and the checks of a screen.
// The set-up helpers are exported from here too, for the flows that import everything from this module.
export * from "./set-up";

export const desktop = { width: 1280, height: 800 };
export const mobile = { width: 375, height: 740 };
/** The two widths every flow that checks layout runs at, with the label its screenshots and test names use. */
export const viewports = [
  ["1280", desktop],
  ["375", mobile],
] as const;

// The client's local-storage keys. The token's lives in a module that imports nothing; the theme's in one that
// imports React, so it is repeated here, and the dark-mode flows fail if the two ever differ.
export { AUTH_TOKEN_KEY } from "../client/src/lib/auth-token-key";
/** = THEME_STORAGE_KEY in client/src/components/theme-provider.tsx. */
export const THEME_STORAGE_KEY = "quorum.theme";

/** Debian's Chromium, headless, with the background networking this closed machine refuses switched off. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions);
}

/** The pages openPage made for the running test; useBrowser's afterEach closes them and checks their errors. */
const openedPages: { context: BrowserContext; errors: string[] }[] = [];
let pagesAreClosedAfterEach = false;

type Viewport = { width: number; height: number };

/** The file's browser (call it for the Browser itself), with the pages a flow opens in it. */
export interface BrowserOfFile {
  (): Browser;
  /** openPage in this browser. */
  openPage(viewport?: Viewport): Promise<TrackedPage>;
  /** signedInPage in this browser. */
  signedInPage(account: Credentials | Account, options?: SignedInPageOptions): Promise<Page>;
}

/**
 * Launches the browser before the file's tests and closes it after them; call at the top of an e2e file.
 * After each test, passed or failed, it closes every context openPage made and fails the test if any of
 * its pages saw a script error.
 */
export function useBrowser(): BrowserOfFile {
  let browser: Browser | undefined;
  pagesAreClosedAfterEach = true;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(async () => {
    const opened = openedPages.splice(0);
    // Read the errors before closing, so nothing a page does while it is torn down is counted.
    const errors = opened.flatMap((entry) => [...entry.errors]);
    await Promise.allSettled(opened.map((entry) => entry.context.close()));
    expect(errors, "script errors on the test's pages").toEqual([]);
  });
  afterAll(() => browser?.close());
  const launched = () => {
    if (!browser) throw new Error("the browser is launched in beforeAll");
    return browser;
  };
  return Object.assign(launched, {
    openPage: (viewport?: Viewport) => openPage(launched(), viewport),
    signedInPage: (account: Credentials | Account, options?: SignedInPageOptions) => signedInPage(launched(), account, options),
  });
}

export interface OwnServer {
  /** The app's address, http://localhost:<port>: a passkey's RP ID must be a host name, never an IP address. */
  origin(): string;
  /** The same server at 127.0.0.1, which the API helpers of set-up.ts call. */
  apiOrigin(): string;
}

/**
 * Starts a built server of this file's own before its tests (its address named `localhost`) and stops it after them;
 * the API helpers of set-up.ts call it. For the flows that need a host name (passkeys) or settings of their own (mail).
 */
export function useOwnServer(env?: Record<string, string>): OwnServer {
  let started: Awaited<ReturnType<typeof startBuiltServer>> | undefined;
  beforeAll(async () => {
    started = await startBuiltServer({ appHost: "localhost", env });
    useApiOrigin(started.baseURL);
  });
  afterAll(async () => {
    const server = started?.server;
    if (!server || server.exitCode != null) return;
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  });
  const baseURLOf = () => {
    if (!started) throw new Error("the server is started in beforeAll");
    return started.baseURL;
  };
  return { origin: () => `http://localhost:${new URL(baseURLOf()).port}`, apiOrigin: baseURLOf };
}

export interface OwnServerWithMail extends OwnServer {
  /**
   * The first mail to `to` whose text holds `text`, waiting (up to a minute) for the server's outbox to send it; taken
   * off the list, so a second call finds the next one.
   */
  mailTo(to: string, text: string): Promise<ReceivedMail>;
}

/**
 * useOwnServer whose mail leaves through a real SMTP server in this process (the app's mail service pointed at it by the
 * platform admin), so a flow follows the links in what arrived, as the holder of the address would. Its outbox is sent
 * every second, so a flow waits a moment for its mail rather than a quarter of a minute; its SMTP server is on this
 * machine: allow-listed, so reachable (and spared the STARTTLS it does not offer). The first account of its empty
 * database is its platform admin, registered here: call it before any other set-up of the file.
 */
export function useOwnServerWithMail(): OwnServerWithMail {
  const ownServer = useOwnServer({ JOBS_INTERVAL_MS: "1000", OUTBOUND_ALLOWED_HOSTS: "127.0.0.1" });
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>> | undefined;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    // Service keys are allowed only from a session that passed a second factor (an app turned on counts).
    const admin = await registerAccount({ username: uniqueName("admin"), firstName: "Robin", lastName: "Keyes" });
    await authenticatorThroughApi(admin);
    await apiAs(admin, "POST", "/api/platform/settings", {
      serviceName: "SendGrid",
      serviceKey: "SG.test-key-0123456789abcdef",
      serviceUrl: `smtp://apikey@127.0.0.1:${smtp.port}`,
    });
  });
  afterAll(async () => {
    await smtp?.close();
  });
  const mailTo = async (to: string, text: string) => {
    const mail = await vi.waitFor(
      () => {
        const found = smtp!.received.find(
          (candidate) => candidate.to.some((address) => address.toLowerCase() === to.toLowerCase()) && candidate.text.includes(text),
        );
        if (!found) throw new Error(`no mail to ${to} with "${text}" yet`);
        return found;
      },
      { timeout: 60_000, interval: 250 },
    );
    smtp!.received.splice(smtp!.received.indexOf(mail), 1);
    return mail;
  };
  return { ...ownServer, mailTo };
}

/** What a test reads of a credential the virtual authenticator holds. */
export interface VirtualCredential {
  isResidentCredential: boolean;
  rpId?: string;
  signCount: number;
}

/**
 * Gives the page Chromium's virtual platform authenticator (the DevTools protocol's WebAuthn domain), which verifies
 * its user: the browser creates and signs with real credentials, nothing is mocked. Answers its credentials.
 */
export async function addVirtualAuthenticator(page: Page): Promise<() => Promise<VirtualCredential[]>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials;
}

export interface TrackedPage {
  page: Page;
  /** Uncaught errors and console errors seen so far; useBrowser's afterEach fails the test unless this is empty. */
  errors: string[];
}

/** A page in a fresh context (own localStorage), collecting script errors; closed after the test by useBrowser. */
export async function openPage(browser: Browser, viewport: Viewport = desktop): Promise<TrackedPage> {
  if (!pagesAreClosedAfterEach) throw new Error("call useBrowser() in the file: it closes the pages and checks their errors");
  const context = await browser.newContext({ viewport, baseURL: baseURL() });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    // Failed requests the flow provokes on purpose (401 before sign-in) are logged by the browser, not by our code.
    if (message.type() === "error" && !/Failed to load resource/.test(message.text())) errors.push(message.text());
  });
  openedPages.push({ context, errors });
  return { page, errors };
}

/** Answers the "Confirm it's you" dialog a security change opens (a sign-in alone is no fresh proof) with the password. */
export async function confirmItsYou(page: Page, password: string): Promise<void> {
  const dialog = page.getByRole("dialog", { name: "Confirm it's you" });
  await dialog.waitFor();
  await dialog.getByLabel("Password", { exact: true }).fill(password);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await dialog.waitFor({ state: "detached" });
}

export interface SignInOptions {
  /** Where the form is opened: / unless told (a signed-in page shows the form in place). */
  from?: string;
  /** Waits for the "Login successful" toast. */
  awaitWelcome?: boolean;
}

/** Signs in through the form shown at `from`. */
export async function signIn(page: Page, account: Credentials, options: SignInOptions = {}): Promise<void> {
  await page.goto(options.from ?? "/");
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  if (options.awaitWelcome) await page.getByText("Login successful").first().waitFor();
}

/** Dark mode as the account's preference: kept on the server (it wins after sign-in) and in the page's browser (first paint). */
async function preferDarkMode(page: Page, account: { token: string; id: number }): Promise<void> {
  await apiAs(account, "PUT", `/api/users/${account.id}/preferences`, { darkMode: true });
  await page.addInitScript((key) => localStorage.setItem(key, "dark"), THEME_STORAGE_KEY);
}

export interface SignedInPageOptions extends SignInOptions {
  viewport?: Viewport;
  /** The account prefers dark mode before it signs in, so the page is dark from its first paint. */
  darkMode?: boolean;
}

/** A new page (see openPage) signed in as `account` through the form (see signIn). */
export async function signedInPage(browser: Browser, account: Credentials | Account, options: SignedInPageOptions = {}): Promise<Page> {
  const { page } = await openPage(browser, options.viewport);
  if (options.darkMode) {
    if (!("token" in account)) throw new Error("dark mode is the account's preference, set through the API: pass the Account");
    await preferDarkMode(page, account);
  }
  await signIn(page, account, options);
  return page;
}

export interface RegistrationFields {
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  password: string;
}

/**
 * Fills and sends the form on /register (opened first unless the page is already there), and answers
 * the fields used: a unique username, its example.com e-mail and "board-password-1" unless told.
 */
export async function registerThroughForm(page: Page, fields: Partial<RegistrationFields> = {}): Promise<RegistrationFields> {
  const username = fields.username ?? uniqueName("user");
  const filled: RegistrationFields = {
    firstName: fields.firstName ?? "Casey",
    lastName: fields.lastName ?? "Director",
    username,
    email: fields.email ?? `${username}@example.com`,
    password: fields.password ?? setUpPassword,
  };
  if (new URL(page.url()).pathname !== "/register") await page.goto("/register");
  await page.getByLabel("First name").fill(filled.firstName);
  await page.getByLabel("Last name").fill(filled.lastName);
  await page.getByLabel("Username").fill(filled.username);
  await page.getByLabel("Email").fill(filled.email);
  await page.getByLabel("Password").fill(filled.password);
  await page.getByRole("button", { name: "Create account" }).click();
  return filled;
}

/** Picks `option` in the select labelled `label` inside `scope` (the page, or a dialog); the options open in a portal. */
export async function choose(scope: Page | Locator, label: string, option: string): Promise<void> {
  const page = "goto" in scope ? scope : scope.page();
  const field = scope.getByRole("combobox", { name: label });
  // A long list may still scroll under the pointer as it opens, and the click then lands beside the option: the
  // choice counts once the field shows it, and is made again otherwise.
  let shown = "";
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    await field.click();
    await page.getByRole("option", { name: option, exact: true }).click();
    const closed = await page
      .getByRole("listbox")
      .waitFor({ state: "detached", timeout: 2000 })
      .then(() => true)
      .catch(() => false);
    if (!closed) await page.keyboard.press("Escape");
    shown = ((await field.textContent()) ?? "").trim();
    if (shown === option) return;
  }
  throw new Error(`${label} shows "${shown}" after choosing "${option}" three times`);
}

/** Waits (up to 3 s) until no animation or transition on the page is running: the screen as people see it once it is still. */
export async function settled(page: Page): Promise<void> {
  await page
    .waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"), undefined, { timeout: 3000 })
    .catch(() => undefined);
}

/** Fails on serious or critical axe-core violations of the current screen. */
export async function expectAccessible(page: Page): Promise<void> {
  // A toast or dialog still fading in has partial opacity, which axe reads as low contrast: check the settled screen.
  await settled(page);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  const summary = serious.map(
    (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
  if (summary.length > 0) throw new Error(`Accessibility violations:\n${summary.join("\n")}`);
}

/** A screenshot under e2e/artifacts/ for people to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync("e2e/artifacts", { recursive: true });
  await page.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: true });
}

/** The page has no horizontal scrollbar (the 375 px rule). */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 1) throw new Error(`page scrolls horizontally by ${overflow}px`);
}

/** The screen fits its width (no horizontal scroll), has no serious axe violation, and is kept as the screenshot `name`. */
export async function checkScreen(page: Page, name: string): Promise<void> {
  await expectNoHorizontalScroll(page);
  await expectAccessible(page);
  await screenshot(page, name);
}

/** Whether the page shows the dark theme (the class the theme provider puts on the root element). */
export function isDarkTheme(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.classList.contains("dark"));
}
