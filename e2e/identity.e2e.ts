import type { Page } from "playwright-core";
import { linkTokenIn } from "../server/src/testing/smtp-capture";
import { apiAs, createActiveCompany, registerAccount, uniqueName, type Account } from "./set-up";
import {
  AUTH_TOKEN_KEY,
  choose,
  checkScreen,
  expectAccessible,
  expectNoHorizontalScroll,
  screenshot,
  useBrowser,
  useOwnServerWithMail,
  viewports,
} from "./support";

// Who may join a board, as its people meet it: an invitation followed from the mail it came in, and a forgotten
// password reset by its link (a security change asking for the password first is in passkeys.e2e.ts). The flows follow
// the links in the mail that arrived (useOwnServerWithMail), as the holder of the address would. The file runs its own
// server: it configures a mail service, which the run's shared server must not send through.

const browser = useBrowser();
const ownServer = useOwnServerWithMail();

/** The token of the link to `page` in a mail to `to`. */
async function linkTokenFromMail(to: string, page: string): Promise<string> {
  return linkTokenIn(await ownServer.mailTo(to, `${page}?token=`), page);
}

/** An account whose address is proved, by the link of the mail registration sent. */
async function verifiedAccount(prefix: string): Promise<Account> {
  const person = await registerAccount({ username: uniqueName(prefix), firstName: "Robin", lastName: "Keyes" });
  const token = await linkTokenFromMail(person.email, "/verify-email");
  const response = await fetch(`${ownServer.apiOrigin()}/api/auth/verify-email`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token }),
  });
  if (!response.ok) throw new Error(`verify-email failed: ${response.status}`);
  return person;
}

async function tokenIn(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), AUTH_TOKEN_KEY);
}

describe.each(viewports)("identity at %s px", (label, viewport) => {
  it("invites a director, opens the link from the mail, creates the account and lands in the company", async () => {
    const founder = await registerAccount({ username: uniqueName("founder") });
    const companyName = uniqueName("Alpha Board ");
    const { id: companyId } = await createActiveCompany(founder, { name: companyName, location: "London, United Kingdom" });
    const director = `${uniqueName("director")}@example.com`;

    const founderPage = await browser.signedInPage(founder, { viewport, from: `${ownServer.origin()}/`, awaitWelcome: true });
    await founderPage.goto(`${ownServer.origin()}/company-settings`);
    await founderPage.getByRole("tab", { name: "Team Members" }).click();
    const form = founderPage.getByRole("form", { name: "Invite a member" });
    await form.getByLabel("Email").fill(director);
    await choose(form, "Role", "Board Member");
    await form.getByRole("button", { name: "Send Invitation" }).click();
    await founderPage.getByText("Invitation sent").first().waitFor();
    // The link is shown once, to copy, beside the invitation now listed as pending.
    await founderPage.getByRole("button", { name: "Copy invitation link" }).waitFor();
    await founderPage.getByRole("list", { name: "Invitations" }).getByText(director).waitFor();
    await checkScreen(founderPage, `identity-invite-sent-${label}`);

    const token = await linkTokenFromMail(director, "/invite");
    const { page } = await browser.openPage(viewport);
    await page.goto(`${ownServer.origin()}/invite?token=${encodeURIComponent(token)}`);
    await page.getByRole("heading", { level: 1, name: `Join ${companyName}` }).waitFor();
    await page.getByText("Board Member").first().waitFor();
    await page.getByRole("heading", { level: 2, name: "Create account and join" }).waitFor();
    await checkScreen(page, `identity-invite-page-${label}`);

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
    const me = await apiAs<{ companyId: number; role: string; emailVerified: boolean }>({ token: session! }, "GET", "/api/auth/user");
    expect(me).toMatchObject({ companyId, role: "member", emailVerified: true });
    // Nor is the link good a second time.
    await page.goto(`${ownServer.origin()}/invite?token=${encodeURIComponent(token)}`);
    await page.getByText("This invitation has already been accepted.").waitFor();
  });

  it("resets a forgotten password from sign-in and reaches the dashboard", async () => {
    const person = await verifiedAccount("forgetful");
    await createActiveCompany(person, { name: uniqueName("Reset Board "), location: "London, United Kingdom" });
    const { page } = await browser.openPage(viewport);
    await page.goto(`${ownServer.origin()}/`);
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
    await page.goto(`${ownServer.origin()}/reset-password?token=${encodeURIComponent(token)}`);
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
    const refused = await fetch(`${ownServer.apiOrigin()}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: person.username, password: person.password }),
    });
    expect(refused.status).toBe(401);
  });
});
