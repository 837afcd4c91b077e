import { mkdirSync } from "node:fs";
import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import * as OTPAuth from "otpauth";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { chromiumLaunchOptions } from "../scripts/testing/chromium";
import { afterAll, afterEach, beforeAll, expect, inject } from "vitest";
import { meetingCategory, meetingEndFrom, meetingFileType } from "../shared/meeting-model";

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

export const baseURL = () => inject("baseURL");

/** Where the API set-up helpers below send their calls: the run's server, unless a file runs a server of its own. */
let apiOrigin: string | undefined;
const apiBase = () => apiOrigin ?? baseURL();
/** For a file that runs a server of its own: the set-up helpers call it from now on. */
export function useApiOrigin(origin: string): void {
  apiOrigin = origin;
}
export const platformAdmin = () => inject("platformAdmin");

/** Debian's Chromium, headless, with the background networking this closed machine refuses switched off. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions);
}

/** The pages openPage made for the running test; useBrowser's afterEach closes them and checks their errors. */
const openedPages: { context: BrowserContext; errors: string[] }[] = [];
let pagesAreClosedAfterEach = false;

/**
 * Launches the browser before the file's tests and closes it after them; call at the top of an e2e file.
 * After each test, passed or failed, it closes every context openPage made and fails the test if any of
 * its pages saw a script error.
 */
export function useBrowser(): () => Browser {
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
  return () => {
    if (!browser) throw new Error("the browser is launched in beforeAll");
    return browser;
  };
}

export interface TrackedPage {
  page: Page;
  /** Uncaught errors and console errors seen so far; useBrowser's afterEach fails the test unless this is empty. */
  errors: string[];
}

/** A page in a fresh context (own localStorage), collecting script errors; closed after the test by useBrowser. */
export async function openPage(browser: Browser, viewport: { width: number; height: number } = desktop): Promise<TrackedPage> {
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

export function uniqueName(prefix: string): string {
  return `${prefix}${randomBytes(3).toString("hex")}`;
}

export interface Account {
  username: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  token: string;
  id: number;
}

/** Registers through the API (for flows whose subject is not registration). */
export async function registerAccount(
  fields: Partial<Omit<Account, "token" | "id">> & { invitationToken?: string } = {},
): Promise<Account> {
  const username = fields.username ?? uniqueName("user");
  const body = {
    username,
    email: fields.email ?? `${username}@example.com`,
    password: fields.password ?? "board-password-1",
    firstName: fields.firstName ?? "Casey",
    lastName: fields.lastName ?? "Director",
  };
  const response = await fetch(`${apiBase()}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...body, invitationToken: fields.invitationToken }),
  });
  if (response.status !== 201) throw new Error(`register failed: ${response.status} ${await response.text()}`);
  const json = (await response.json()) as { token: string; id: number };
  return { ...body, token: json.token, id: json.id };
}

/** Calls the API as an account (test set-up only). */
export async function apiAs<T>(account: { token: string }, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${apiBase()}${path}`, {
    method,
    headers: { Authorization: `Bearer ${account.token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} failed: ${response.status} ${await response.text()}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Signs in through the API and answers the session token (test set-up only). */
export async function logInThroughApi(credentials: { username: string; password: string }): Promise<{ token: string }> {
  const response = await fetch(`${apiBase()}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: credentials.username, password: credentials.password }),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status}`);
  return { token: ((await response.json()) as { token: string }).token };
}

/** A company of the account's own, made its active company (so the account lands on /dashboard). */
export async function createActiveCompany(account: Account, fields: { name: string; location: string }): Promise<{ id: number }> {
  const company = await apiAs<{ id: number }>(account, "POST", "/api/companies", {
    name: fields.name,
    industry: "Technology",
    location: fields.location,
    stage: "seed",
  });
  await apiAs(account, "PUT", `/api/users/${account.id}`, { companyId: company.id });
  return company;
}

export interface Board {
  founder: Account;
  companyId: number;
  members: { id: number; firstName: string; lastName: string; email: string }[];
}

/**
 * Invites `person` to the founder's company and has them accept by registering with the link's token, as the invitation
 * page does (set-up only): their username is their e-mail address and their password "board-password-1".
 */
export async function joinByInvitation(
  founder: Account,
  companyId: number,
  person: { email: string; firstName: string; lastName: string; role: "admin" | "member" | "observer" },
): Promise<Account> {
  const invited = await apiAs<{ inviteUrl: string }>(founder, "POST", `/api/companies/${companyId}/members`, {
    email: person.email,
    role: person.role,
  });
  return registerAccount({
    username: person.email,
    email: person.email,
    firstName: person.firstName,
    lastName: person.lastName,
    invitationToken: new URL(invited.inviteUrl).searchParams.get("token") ?? "",
  });
}

/** The authenticator app of a secret, as the server's set-up describes it (SHA-1, 6 digits, 30 s). */
export const authenticatorApp = (secret: string) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" });

const totpStepMs = 30_000;
/** The authenticator's time step of a moment (the server runs on this machine's clock). */
export const totpStep = (timestamp = Date.now()) => Math.floor(timestamp / totpStepMs);
/** How long a code may take from here to the server's check: its step stays within the server's window that long. */
const codeTransitMs = 10_000;

/**
 * The code of the earliest step the server surely takes after `usedStep` (it takes each step's code once, and
 * codes of one step either side of its own), and that step. The server's clock moves on while the code travels,
 * so a past step is chosen only with `codeTransitMs` to spare. Waits only when the step after the used one is
 * still two steps ahead, until it is the next one. Usable in hooks too (no expect.poll).
 */
export async function codeAfter(app: OTPAuth.TOTP, usedStep = -Infinity): Promise<{ code: string; step: number }> {
  const step = Math.max(usedStep + 1, totpStep(Date.now() - totpStepMs + codeTransitMs));
  // The step turns acceptable when the clock enters the one before it (the wait is never longer than a step).
  while (totpStep() + 1 < step) await new Promise((resolve) => setTimeout(resolve, (step - 1) * totpStepMs - Date.now() + 50));
  return { code: app.generate({ timestamp: step * totpStepMs }), step };
}

/**
 * Turns the account's authenticator app on through the API (set-up only), after the fresh proof of the password a
 * security change needs; the session that confirmed it counts as having passed it. Answers the app, the code used
 * and its step. The code is of the earliest step the server takes, so that two later steps are taken at once.
 */
export async function authenticatorThroughApi(account: {
  token: string;
  password: string;
}): Promise<{ app: OTPAuth.TOTP; used: string; usedStep: number; recoveryCodes: string[] }> {
  await apiAs(account, "POST", "/api/auth/reauth", { password: account.password });
  const { secret } = await apiAs<{ secret: string }>(account, "POST", "/api/auth/totp/setup");
  const app = authenticatorApp(secret);
  const { code: used, step: usedStep } = await codeAfter(app);
  const { recoveryCodes } = await apiAs<{ recoveryCodes: string[] }>(account, "POST", "/api/auth/totp/confirm", { code: used });
  return { app, used, usedStep, recoveryCodes };
}

/** A founder with an active company and three board members who joined by invitation, set up through the API (password "board-password-1"). */
export async function boardWithMembers(): Promise<Board> {
  const founder = await registerAccount({ firstName: "Morgan", lastName: "Chair" });
  const company = await createActiveCompany(founder, { name: uniqueName("Meeting Board "), location: "London, United Kingdom" });
  const members: Board["members"] = [];
  for (const [firstName, lastName] of [
    ["Avery", "Director"],
    ["Blake", "Trustee"],
    ["Casey", "Advisor"],
  ] as const) {
    const email = `${uniqueName(firstName.toLowerCase())}@example.com`;
    const joined = await joinByInvitation(founder, company.id, { email, firstName, lastName, role: "member" });
    members.push({ id: joined.id, firstName, lastName, email });
  }
  return { founder, companyId: company.id, members };
}

/** Answers the "Confirm it's you" dialog a security change opens (a sign-in alone is no fresh proof) with the password. */
export async function confirmItsYou(page: Page, password: string): Promise<void> {
  const dialog = page.getByRole("dialog", { name: "Confirm it's you" });
  await dialog.waitFor();
  await dialog.getByLabel("Password", { exact: true }).fill(password);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await dialog.waitFor({ state: "detached" });
}

/**
 * Signs in through the form shown at `from` (/ unless told; a signed-in page shows the form in place).
 * With `awaitWelcome` it waits for the "Login successful" toast.
 */
export async function signIn(
  page: Page,
  account: { username: string; password: string },
  options: { from?: string; awaitWelcome?: boolean } = {},
): Promise<void> {
  await page.goto(options.from ?? "/");
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  if (options.awaitWelcome) await page.getByText("Login successful").first().waitFor();
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
    password: fields.password ?? "board-password-1",
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
  await scope.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

/**
 * A meeting of the board's company, created through the documents API as the founder (set-up only):
 * two hours long (shared/meetings.ts), pending, with every member invited unless `participants` says who.
 */
export async function scheduleMeetingThroughApi(
  board: Board,
  meeting: { title: string; start: Date; participants?: readonly { id: number }[]; location?: string; agenda?: string },
): Promise<{ id: number }> {
  return apiAs<{ id: number }>(board.founder, "POST", "/api/documents", {
    category: meetingCategory,
    fileType: meetingFileType,
    content: JSON.stringify({
      type: "meeting",
      title: meeting.title,
      date: meeting.start.toISOString(),
      endDate: meetingEndFrom(meeting.start).toISOString(),
      location: meeting.location ?? "Boardroom, 1 King Street",
      status: "pending",
      participants: (meeting.participants ?? board.members).map((member) => String(member.id)),
      agenda: meeting.agenda ?? "1. Call to order and quorum (5 min)",
    }),
  });
}

/** Fails on serious or critical axe-core violations of the current screen. */
/** Waits (up to 3 s) until no animation or transition on the page is running: the screen as people see it once it is still. */
export async function settled(page: Page): Promise<void> {
  await page
    .waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"), undefined, { timeout: 3000 })
    .catch(() => undefined);
}

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
