import type { Page } from "playwright-core";
import { baseURL, registerAccount, uniqueName } from "./set-up";
import {
  checkScreen,
  choose,
  desktop,
  expectAccessible,
  expectNoHorizontalScroll,
  mobile,
  registerThroughForm,
  screenshot,
  useBrowser,
} from "./support";

const browser = useBrowser();

/** A square SVG logo for the upload (read by the page into a data:image/svg+xml URL). */
const logoSvg = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">' +
    '<rect width="512" height="512" rx="96" fill="#1e3a8a"/><circle cx="256" cy="256" r="150" fill="#f59e0b"/></svg>',
);

const sidebar = (page: Page) => page.getByRole("complementary", { name: "Sidebar" });

interface WizardInput {
  name: string;
  industry: string;
  stage: string;
  city: string;
  country: string;
  website?: string;
  employees?: string;
  logo?: boolean;
}

/** Walks the three steps of /company-onboarding; screenshots each step under `shots` when given. */
async function completeWizard(page: Page, input: WizardInput, shots?: { prefix: string; checkScroll?: boolean }) {
  const form = page.getByRole("form", { name: "Company setup" });
  await form.waitFor();
  const shot = async (step: number) => {
    if (!shots) return;
    if (shots.checkScroll) await expectNoHorizontalScroll(page);
    await screenshot(page, `${shots.prefix}-step${step}`);
  };

  await page.getByText("Step 1 of 3").waitFor();
  await page.getByLabel("Company name").fill(input.name);
  await choose(page, "Industry", input.industry);
  await choose(page, "Funding stage", input.stage);
  await page.getByLabel("Description").fill(`${input.name} builds board software.`);
  await shot(1);
  await page.getByRole("button", { name: "Next Step" }).click();

  await page.getByText("Step 2 of 3").waitFor();
  await page.getByLabel("City").fill(input.city);
  await page.getByLabel("Country").fill(input.country);
  if (input.website) await page.getByLabel("Website").fill(input.website);
  if (input.employees) await choose(page, "Number of employees", input.employees);
  await shot(2);
  await page.getByRole("button", { name: "Next Step" }).click();

  await page.getByText("Step 3 of 3").waitFor();
  await page.getByText("512x512px or larger").waitFor();
  if (input.logo) {
    await page.getByLabel("Company logo").setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: logoSvg });
    await page.locator("img[src^='data:image/svg+xml;base64,']").first().waitFor();
  }
  const review = page.getByRole("region", { name: "Review" });
  await review.getByText(input.name, { exact: true }).waitFor();
  await review.getByText(`${input.city}, ${input.country}`).waitFor();
  await shot(3);
  await page.getByRole("button", { name: "Complete Setup" }).click();

  await page.getByRole("heading", { name: "Setup Complete!" }).waitFor();
  await page.getByText("Company created").first().waitFor();
}

describe("companies and people in the browser", () => {
  it("onboarding → dashboard, a second company, switching, settings that persist, and a member who signs in", async () => {
    const { page } = await browser.openPage(desktop);
    const username = uniqueName("founder");
    const firstCompany = uniqueName("Northwind ");
    const secondCompany = uniqueName("Contoso ");

    // Register through the form: the new founder lands on the wizard.
    await registerThroughForm(page, { firstName: "Frances", lastName: "Founder", username, password: "board-password-1" });
    await page.waitForURL("**/company-onboarding");
    await expectAccessible(page);

    // Validation runs at 'Complete Setup' and brings the first step with a problem back.
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.getByRole("button", { name: "Complete Setup" }).click();
    await page.getByText("Company name is required").waitFor();
    await page.getByText("Step 1 of 3").waitFor();
    await screenshot(page, "companies-onboarding-errors-1280");

    await completeWizard(
      page,
      {
        name: firstCompany,
        industry: "Technology",
        stage: "Seed",
        city: "Lisbon",
        country: "Portugal",
        website: "https://northwind.example.com",
        employees: "11-50",
        logo: true,
      },
      { prefix: "companies-onboarding-1280" },
    );
    await expectAccessible(page);
    await screenshot(page, "companies-setup-complete-1280");
    await page.getByRole("link", { name: "Go to Dashboard" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByTestId("header-title").getByText("Dashboard").waitFor();
    await sidebar(page).getByTestId("current-company").getByText(firstCompany).waitFor();
    await screenshot(page, "companies-dashboard-one-company-1280");

    // A second company through 'Add Company'.
    await sidebar(page).getByRole("link", { name: "Add Company" }).click();
    await page.waitForURL("**/company-onboarding");
    await completeWizard(page, { name: secondCompany, industry: "Energy", stage: "Series C or later", city: "Oslo", country: "Norway" });
    await page.getByRole("link", { name: "Go to Dashboard" }).click();
    await page.waitForURL((url) => url.pathname === "/");

    // Two companies: the switcher appears, acting in the newest one.
    const switcher = sidebar(page).getByTestId("company-switcher");
    await switcher.getByText(secondCompany).waitFor();
    await switcher.click();
    const menu = page.getByRole("menu");
    await menu.getByRole("menuitem", { name: new RegExp(firstCompany) }).waitFor();
    await screenshot(page, "companies-switcher-open-1280");
    await menu.getByRole("menuitem", { name: new RegExp(firstCompany) }).click();
    await page.getByText("Company changed").first().waitFor();
    await switcher.getByText(firstCompany).waitFor();
    await switcher.click();
    await page
      .getByRole("menu")
      .getByRole("menuitem", { name: new RegExp(secondCompany) })
      .click();
    await switcher.getByText(secondCompany).waitFor();
    await switcher.click();
    await page
      .getByRole("menu")
      .getByRole("menuitem", { name: new RegExp(firstCompany) })
      .click();
    await switcher.getByText(firstCompany).waitFor();

    // Company Settings: a change survives a reload.
    await sidebar(page).getByRole("link", { name: "Company Settings" }).click();
    await page.waitForURL("**/company-settings");
    await page.getByRole("tab", { name: "General" }).waitFor();
    const renamed = `${firstCompany} Group`;
    await page.getByLabel("Company name").fill(renamed);
    await page.getByLabel("Invitation message").fill("Welcome to the Northwind board.");
    await choose(page, "Funding stage", "Series D+");
    await expectAccessible(page);
    await screenshot(page, "companies-settings-general-1280");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await page.getByText("Company updated").first().waitFor();
    await page.reload();
    await page.getByRole("tab", { name: "General" }).waitFor();
    expect(await page.getByLabel("Company name").inputValue()).toBe(renamed);
    expect(await page.getByLabel("Invitation message").inputValue()).toBe("Welcome to the Northwind board.");
    expect(await page.getByRole("combobox", { name: "Funding stage" }).textContent()).toContain("Series D+");
    await switcher.getByText(renamed).waitFor();

    await page.getByRole("tab", { name: "Team Members" }).click();
    await page.getByRole("form", { name: "Invite a member" }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "companies-settings-team-1280");

    // Board Members: "Add Member" invites; the link is shown once, to copy.
    const memberEmail = `${uniqueName("member")}@example.com`;
    await sidebar(page).getByRole("link", { name: "Board Members" }).click();
    await page.waitForURL("**/board-members");
    await page.getByRole("button", { name: "Add Member" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Board Member" });
    await dialog.getByLabel("First name").fill("Mina");
    await dialog.getByLabel("Last name").fill("Member");
    await dialog.getByLabel("Email").fill(memberEmail);
    await dialog.getByLabel("Password").fill("founder-chosen-1");
    await expectAccessible(page);
    await screenshot(page, "companies-add-member-1280");
    await dialog.getByRole("button", { name: "Add Member" }).click();
    await page.getByText("Invitation sent").first().waitFor();
    const inviteUrl = await dialog.getByRole("textbox", { name: "Invitation link" }).inputValue();
    await dialog.getByRole("button", { name: "Done" }).click();
    // Nobody joined yet: the invitation is pending.
    await page.getByRole("list", { name: "Invitations" }).getByText(memberEmail).waitFor();
    expect(await page.getByTestId("member-card").filter({ hasText: "Mina Member" }).count()).toBe(0);
    await screenshot(page, "companies-board-members-1280");
    // The founder's part is done: one browser window at a time (its errors are still checked after the test).
    await page.context().close();

    // The founder's password signs nobody in; the member sets their own by the link and lands in the company.
    const refused = await fetch(`${baseURL()}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: memberEmail, password: "founder-chosen-1" }),
    });
    expect(refused.status).toBe(401);
    const member = await browser.openPage(desktop);
    await member.page.goto(new URL(inviteUrl).pathname + new URL(inviteUrl).search);
    await member.page.getByRole("heading", { level: 2, name: "Create account and join" }).waitFor();
    await member.page.getByLabel("First name").fill("Mina");
    await member.page.getByLabel("Last name").fill("Member");
    await member.page.getByLabel("Username").fill(memberEmail);
    await member.page.getByLabel("Email").fill(memberEmail);
    await member.page.getByLabel("Password", { exact: true }).fill("member-password-1");
    await member.page.getByRole("button", { name: "Create account and join" }).click();
    await member.page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    await sidebar(member.page).getByTestId("current-company").getByText(renamed).waitFor();
    await sidebar(member.page).getByRole("link", { name: "Board Members" }).click();
    await member.page.waitForURL("**/board-members");
    const cards = member.page.getByTestId("member-card");
    await cards.filter({ hasText: "Frances Founder" }).getByText("Founder / Admin", { exact: true }).waitFor();
    await cards.filter({ hasText: "Mina Member" }).getByText("Board Member", { exact: true }).waitFor();
    expect(await member.page.getByRole("button", { name: "Add Member" }).count()).toBe(0);
    // A member has no Company Settings: the page sends them back with 'Access Denied'.
    expect(await sidebar(member.page).getByRole("link", { name: "Company Settings" }).count()).toBe(0);
    await member.page.goto("/company-settings");
    await member.page.getByText("Access Denied").first().waitFor();
    await member.page.waitForURL((url) => url.pathname === "/");
  });

  it("at 375 px the wizard, Board Members and Company Settings fit without horizontal scrolling", async () => {
    const account = await registerAccount({ firstName: "Phoebe", lastName: "Phone" });
    const page = await browser.signedInPage(account, { viewport: mobile });
    await page.waitForURL("**/company-onboarding");
    await completeWizard(
      page,
      {
        name: uniqueName("Pocket Board "),
        industry: "Media & Entertainment",
        stage: "Profitable",
        city: "Nairobi",
        country: "Kenya",
        employees: "201-500",
        logo: true,
      },
      { prefix: "companies-onboarding-375", checkScroll: true },
    );
    await expectNoHorizontalScroll(page);
    await screenshot(page, "companies-setup-complete-375");
    await page.getByRole("link", { name: "Go to Dashboard" }).click();
    await page.waitForURL((url) => url.pathname === "/");

    await page.goto("/board-members");
    await page.getByTestId("member-card").first().waitFor();
    await checkScreen(page, "companies-board-members-375");

    await page.goto("/company-settings");
    await page.getByRole("tab", { name: "General" }).waitFor();
    await expectNoHorizontalScroll(page);
    await screenshot(page, "companies-settings-general-375");
    await page.getByRole("tab", { name: "Team Members" }).click();
    await page.getByRole("form", { name: "Invite a member" }).waitFor();
    await expectNoHorizontalScroll(page);
    await screenshot(page, "companies-settings-team-375");
  });
});
