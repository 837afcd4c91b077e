import type { Page } from "playwright-core";
import { apiAs, boardWithMembers, memberCredentials, memberSession, uniqueName } from "./set-up";
import { checkScreen, choose, expectAccessible, mobile, screenshot, useBrowser } from "./support";

const browser = useBrowser();

/** Tomorrow in the browser's local time, as the date input wants it. */
function tomorrow(): string {
  const date = new Date(Date.now() + 24 * 60 * 60 * 1000);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
}

async function openVoteDialog(page: Page, title: string) {
  await page.goto("/resolutions");
  const card = page.getByRole("tabpanel", { name: "Pending" }).getByRole("article", { name: title });
  await card.getByRole("button", { name: "Cast Your Vote" }).click();
  const dialog = page.getByRole("dialog", { name: "Cast Your Vote" });
  await dialog.waitFor();
  return dialog;
}

/** The count shown after a label ("Yes", "No", "Abstain") in the dialog's live counts. */
const countIn = (dialog: ReturnType<Page["getByRole"]>, label: string) =>
  dialog.getByRole("status").locator("div", { hasText: label }).locator("dd");

describe("resolutions in the browser", () => {
  it("creates a resolution, two members vote in two browsers, one changes, one declares a conflict, and the certificate explains the outcome", async () => {
    const board = await boardWithMembers();
    const [avery, blake, casey] = board.members as [(typeof board.members)[0], (typeof board.members)[0], (typeof board.members)[0]];
    const title = uniqueName("Approve the FY27 budget ");
    // A board paper in the library to attach.
    const paper = `${uniqueName("FY27 budget ")}.txt`;
    await apiAs(board.founder, "POST", "/api/documents", {
      name: paper,
      category: "Financial",
      content: `data:text/plain;base64,${Buffer.from("Capital plan for FY27").toString("base64")}`,
    });

    // The founder: the dashboard's quick action lands on /resolutions with the New Resolution dialog open.
    const founder = await browser.signedInPage(board.founder);
    await founder.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    await founder.getByText("No pending resolutions.").waitFor();
    await founder.getByRole("link", { name: "Create resolution" }).click();
    const create = founder.getByRole("dialog", { name: "New Resolution" });
    await create.waitFor();
    expect(new URL(founder.url()).pathname).toBe("/resolutions");

    // Nothing filled: the required-fields toast.
    await create.getByRole("button", { name: "Create Resolution" }).click();
    await founder.getByText("Please fill in all the required fields.").first().waitFor();
    await create.getByLabel("Title").fill(title);
    await create.getByLabel("Description").fill("Capital expenditure of two million for the new plant.");
    await choose(create, "Type", "Ordinary");
    await create.getByText("Passes with more yes than no votes; abstentions do not count.").waitFor();
    await create.getByLabel("Deadline").fill(tomorrow());
    await create.getByRole("checkbox", { name: paper }).check();
    await expectAccessible(founder);
    await screenshot(founder, "resolutions-new-1280");
    await create.getByRole("button", { name: "Create Resolution" }).click();
    await founder.getByText("Resolution created").first().waitFor();
    await create.waitFor({ state: "detached" });
    const card = founder.getByRole("tabpanel", { name: "Pending" }).getByRole("article", { name: title });
    await card.getByText("Pending", { exact: true }).waitFor();

    // The dashboard panel lists it with 'Vote Now', which opens it on /resolutions/:id.
    await founder.goto("/");
    const panel = founder.getByRole("region", { name: "Pending Resolutions" });
    await panel.getByText(title).waitFor();
    expect(await panel.textContent()).toMatch(/Created on [A-Z][a-z]+ \d{1,2}, \d{4} • Expires: [A-Z][a-z]+ \d{1,2}, \d{4}/);
    await expectAccessible(founder);
    await panel.getByRole("link", { name: `Vote Now: ${title}` }).click();
    const founderDialog = founder.getByRole("dialog", { name: "Cast Your Vote" });
    await founderDialog.waitFor();
    expect(new URL(founder.url()).pathname).toMatch(/^\/resolutions\/\d+$/);
    const id = Number(new URL(founder.url()).pathname.split("/").pop());

    // A member votes yes in a second browser context; the founder's open dialog counts it within 6 s.
    const member = await browser.signedInPage(memberCredentials(avery));
    await member.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    const memberDialog = await openVoteDialog(member, title);
    await memberDialog.getByRole("radio", { name: "Yes" }).check();
    await memberDialog.getByRole("button", { name: "Vote Now" }).click();
    await member.getByText("Vote recorded").first().waitFor();
    await countIn(founderDialog, "Yes").filter({ hasText: "1" }).waitFor({ timeout: 6000 });

    // The founder votes no; the member's dialog, open again, counts it within 6 s.
    const again = await openVoteDialog(member, title);
    await again.getByRole("button", { name: "Change Vote" }).waitFor();
    await founderDialog.getByRole("radio", { name: "No" }).check();
    await founderDialog.getByLabel(/Comment/).fill("Too costly this year");
    await founderDialog.getByRole("button", { name: "Vote Now" }).click();
    await founder.getByText("Vote recorded").first().waitFor();
    await countIn(again, "No").filter({ hasText: "1" }).waitFor({ timeout: 6000 });
    await expectAccessible(member);
    await screenshot(member, "resolutions-vote-1280");

    // The member changes to abstain, then declares a conflict, which withdraws the vote.
    await again.getByRole("radio", { name: "Abstain" }).check();
    await again.getByRole("button", { name: "Change Vote" }).click();
    await member.getByText("Vote changed").first().waitFor();
    const conflicted = await openVoteDialog(member, title);
    await conflicted.getByRole("button", { name: "Declare a conflict" }).click();
    await conflicted.getByLabel("Reason for the conflict of interest").fill("I sit on the supplier's board");
    await conflicted.getByRole("button", { name: "Confirm conflict" }).click();
    await member.getByText("Conflict declared").first().waitFor();
    await conflicted.getByText(/You declared a conflict of interest/).waitFor();
    await countIn(conflicted, "Abstain").filter({ hasText: "0" }).waitFor({ timeout: 6000 });

    // The two remaining members vote yes (set-up through the API): everyone eligible has voted, so it is decided.
    for (const person of [blake, casey]) {
      const session = await memberSession(person);
      await apiAs(session, "POST", `/api/resolutions/${id}/vote`, { vote: "yes" });
    }

    // Completed, Approved, with its certificate.
    await founder.goto("/resolutions");
    await founder.getByRole("tab", { name: "Completed" }).click();
    const decided = founder.getByRole("tabpanel", { name: "Completed" }).getByRole("article", { name: title });
    await decided.getByText("Approved", { exact: true }).waitFor();
    await decided.getByRole("button", { name: "Certificate" }).click();
    const certificate = founder.getByRole("dialog", { name: title }).getByRole("region", { name: "Tally certificate" });
    await certificate
      .getByText(
        "Approved: 2 yes, 1 no, 0 abstain of 3 eligible (1 recused); an Ordinary resolution needs more yes than no votes; quorum 2 of 3 met",
      )
      .waitFor();
    await certificate.getByText(`${avery.firstName} ${avery.lastName}: I sit on the supplier's board`).waitFor();
    await certificate.getByText("Too costly this year").waitFor();
    await founder.getByRole("dialog", { name: title }).getByText(paper).first().waitFor();
    await expectAccessible(founder);
    await screenshot(founder, "resolutions-certificate-1280");

    // The dashboard no longer lists it.
    await founder.goto("/");
    await founder.getByRole("region", { name: "Pending Resolutions" }).getByText("No pending resolutions.").waitFor();

    // 375 px: the list and the certificate fit.
    const phone = await browser.signedInPage(board.founder, { viewport: mobile });
    await phone.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    await phone.goto("/resolutions");
    await phone.getByRole("tab", { name: "Completed" }).click();
    await phone.getByRole("tabpanel", { name: "Completed" }).getByRole("article", { name: title }).waitFor();
    await checkScreen(phone, "resolutions-375");
    await phone
      .getByRole("tabpanel", { name: "Completed" })
      .getByRole("article", { name: title })
      .getByRole("button", { name: "Certificate" })
      .click();
    await phone.getByRole("region", { name: "Tally certificate" }).waitFor();
    await expectAccessible(phone);
    await screenshot(phone, "resolutions-certificate-375");
  });
});
