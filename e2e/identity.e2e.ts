import type { ChildProcess } from "node:child_process";
import * as OTPAuth from "otpauth";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { SMTPServer } from "smtp-server";
import { startBuiltServer } from "../scripts/testing/built-server";
import {
  AUTH_TOKEN_KEY,
  choose,
  confirmItsYou,
  expectAccessible,
  expectNoHorizontalScroll,
  openPage,
  screenshot,
  signIn,
  uniqueName,
  useBrowser,
  viewports,
} from "./support";

// Who may join a board, as its people meet it: an invitation followed from the mail it came in, a forgotten password
// reset by its link, and a security change that asks for the password first. Mail leaves the app through a real SMTP
// server in this process (the app's mail service pointed at it by the platform admin), and the flows follow the links
// in what arrived, as the holder of the address would. The file runs its own server: it configures a mail service
// (which the run's shared server must not send through), and a passkey's RP ID must be a host name (localhost).

const browser = useBrowser();
let server: ChildProcess | undefined;
let origin = "";
let apiOrigin = "";
let smtp: SMTPServer | undefined;
const received: { to: string[]; text: string }[] = [];

/** The body of a mail with quoted-printable undone, enough to find a link in it. */
function decoded(raw: string): string {
  return raw.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

async function api<T>(token: string | null, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${apiOrigin}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} failed: ${response.status} ${await response.text()}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

interface Person {
  username: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  token: string;
  id: number;
}

async function register(prefix: string): Promise<Person> {
  const username = uniqueName(prefix);
  const body = { username, email: `${username}@example.com`, password: "board-password-1", firstName: "Robin", lastName: "Keyes" };
  const answer = await api<{ token: string; id: number }>(null, "POST", "/api/auth/register", body);
  return { ...body, token: answer.token, id: answer.id };
}

/**
 * The token of the link to `page` in the first mail to `to` that has one, waiting for the server's outbox round
 * (every second here) to send it.
 */
async function linkTokenFromMail(to: string, page: string): Promise<string> {
  const pattern = new RegExp(`https?://[^\\s"<>]+${page}\\?token=([\\w%-]+)`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    for (const mail of received) {
      if (!mail.to.some((address) => address.toLowerCase() === to.toLowerCase())) continue;
      const match = pattern.exec(mail.text);
      if (match) {
        received.splice(received.indexOf(mail), 1);
        return decodeURIComponent(match[1]!);
      }
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} with a ${page} link`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** An account whose address is proved, by the link of the mail registration sent. */
async function verifiedAccount(prefix: string): Promise<Person> {
  const person = await register(prefix);
  const token = await linkTokenFromMail(person.email, "/verify-email");
  await api(null, "POST", "/api/auth/verify-email", { token });
  return person;
}

async function companyOf(founder: Person, name: string): Promise<number> {
  const company = await api<{ id: number }>(founder.token, "POST", "/api/companies", {
    name,
    industry: "Technology",
    location: "London, United Kingdom",
    stage: "seed",
  });
  await api(founder.token, "PUT", `/api/users/${founder.id}`, { companyId: company.id });
  return company.id;
}

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), text: decoded(Buffer.concat(chunks).toString("utf8")) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp!.listen(0, "127.0.0.1", resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  // Its outbox is sent every second, so a flow waits a moment for its mail rather than a quarter of a minute.
  const started = await startBuiltServer({ appHost: "localhost", env: { JOBS_INTERVAL_MS: "1000" } });
  server = started.server;
  apiOrigin = started.baseURL;
  origin = `http://localhost:${new URL(started.baseURL).port}`;
  // The first account of the empty database is its platform admin; it points the mail service at this file's SMTP server.
  const admin = await register("admin");
  // Service keys change only from a session that passed a second factor: the admin turns an app on (after proving
  // the password again, as any security change needs), which counts for the session that confirmed it.
  await api(admin.token, "POST", "/api/auth/reauth", { password: admin.password });
  const { secret } = await api<{ secret: string }>(admin.token, "POST", "/api/auth/totp/setup");
  const app = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" });
  await api(admin.token, "POST", "/api/auth/totp/confirm", { code: app.generate() });
  await api(admin.token, "POST", "/api/platform/settings", {
    serviceName: "SendGrid",
    serviceKey: "SG.test-key-0123456789abcdef",
    serviceUrl: `smtp://apikey@127.0.0.1:${smtpPort}`,
  });
});

afterAll(async () => {
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  if (!server || server.exitCode != null) return;
  const exited = new Promise((resolve) => server!.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
});

async function tokenIn(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), AUTH_TOKEN_KEY);
}

describe.each(viewports)("identity at %s px", (label, viewport) => {
  it("invites a director, opens the link from the mail, creates the account and lands in the company", async () => {
    const founder = await register("founder");
    const companyName = uniqueName("Alpha Board ");
    const companyId = await companyOf(founder, companyName);
    const director = `${uniqueName("director")}@example.com`;

    const { page: founderPage } = await openPage(browser(), viewport);
    await signIn(founderPage, founder, { from: `${origin}/`, awaitWelcome: true });
    await founderPage.goto(`${origin}/company-settings`);
    await founderPage.getByRole("tab", { name: "Team Members" }).click();
    const form = founderPage.getByRole("form", { name: "Invite a member" });
    await form.getByLabel("Email").fill(director);
    await choose(form, "Role", "Board Member");
    await form.getByRole("button", { name: "Send Invitation" }).click();
    await founderPage.getByText("Invitation sent").first().waitFor();
    // The link is shown once, to copy, beside the invitation now listed as pending.
    await founderPage.getByRole("button", { name: "Copy invitation link" }).waitFor();
    await founderPage.getByRole("list", { name: "Invitations" }).getByText(director).waitFor();
    await expectNoHorizontalScroll(founderPage);
    await expectAccessible(founderPage);
    await screenshot(founderPage, `identity-invite-sent-${label}`);

    const token = await linkTokenFromMail(director, "/invite");
    const { page } = await openPage(browser(), viewport);
    await page.goto(`${origin}/invite?token=${encodeURIComponent(token)}`);
    await page.getByRole("heading", { level: 1, name: `Join ${companyName}` }).waitFor();
    await page.getByText("Board Member").first().waitFor();
    await page.getByRole("heading", { level: 2, name: "Create account and join" }).waitFor();
    await expectNoHorizontalScroll(page);
    await expectAccessible(page);
    await screenshot(page, `identity-invite-page-${label}`);

    const username = director.split("@")[0]!;
    await page.getByLabel("First name").fill("Dana");
    await page.getByLabel("Last name").fill("Director");
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Email").fill(director);
    await page.getByLabel("Password").fill("director-password-1");
    await page.getByRole("button", { name: "Create account and join" }).click();
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    const session = await tokenIn(page);
    expect(session).toMatch(/^[\w-]{43}$/);
    const me = await api<{ companyId: number; role: string; emailVerified: boolean }>(session, "GET", "/api/auth/user");
    expect(me).toMatchObject({ companyId, role: "member", emailVerified: true });
    // Nor is the link good a second time.
    await page.goto(`${origin}/invite?token=${encodeURIComponent(token)}`);
    await page.getByText("This invitation has already been accepted.").waitFor();
  });

  it("resets a forgotten password from sign-in and reaches the dashboard", async () => {
    const person = await verifiedAccount("forgetful");
    await companyOf(person, uniqueName("Reset Board "));
    const { page } = await openPage(browser(), viewport);
    await page.goto(`${origin}/`);
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.getByRole("heading", { level: 1, name: "Forgot your password?" }).waitFor();
    await page.getByLabel("Email").fill(person.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page
      .getByText("If an account has that address, we have sent it a link to reset the password. It works for 30 minutes.")
      .waitFor();
    await expectNoHorizontalScroll(page);
    await expectAccessible(page);

    const token = await linkTokenFromMail(person.email, "/reset-password");
    await page.goto(`${origin}/reset-password?token=${encodeURIComponent(token)}`);
    await page.getByLabel("New password", { exact: true }).fill("a-new-password-2");
    await page.getByLabel("Confirm new password").fill("a-new-password-2");
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.getByText("Your password has been changed. Sign in with your new password.").waitFor();
    await expectAccessible(page);
    await screenshot(page, `identity-password-changed-${label}`);
    await page.getByRole("link", { name: "Sign in" }).click();

    await page.getByLabel("Username").fill(person.username);
    await page.getByLabel("Password").fill("a-new-password-2");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    // The old password no longer signs in.
    const refused = await fetch(`${apiOrigin}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: person.username, password: person.password }),
    });
    expect(refused.status).toBe(401);
  });

  it("asks for the password before adding a passkey", async () => {
    const person = await register("keyholder");
    const { page } = await openPage(browser(), viewport);
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
    await signIn(page, person, { from: `${origin}/`, awaitWelcome: true });
    await page.goto(`${origin}/settings`);
    await page.getByRole("tab", { name: "Security" }).click();
    await page.getByLabel("Name of the new passkey").fill("This device");
    await page.getByRole("button", { name: "Add a passkey" }).click();

    // A sign-in alone is no fresh proof: the dialog asks, and nothing is created until it is answered.
    const dialog = page.getByRole("dialog", { name: "Confirm it's you" });
    await dialog.waitFor();
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(0);
    await expectNoHorizontalScroll(page);
    await expectAccessible(page);
    await screenshot(page, `identity-confirm-its-you-${label}`);
    await confirmItsYou(page, person.password);

    await page.getByText("Passkey added").first().waitFor();
    await page.getByRole("list", { name: "Your passkeys" }).getByText("This device").waitFor();
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1);
  });
});
