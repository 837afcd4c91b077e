import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Locator, Page } from "playwright-core";
import type { WrittenCertificate } from "../shared/written-resolutions";
import {
  apiAs,
  authenticatorThroughApi,
  boardWithMembers,
  codeAfter,
  memberCredentials,
  memberSession,
  setUpPassword,
  uniqueName,
  type Board,
} from "./set-up";
import {
  addVirtualAuthenticator,
  checkScreen,
  confirmItsYou,
  desktop,
  expectAccessible,
  isDarkTheme,
  mobile,
  screenshot,
  signIn,
  THEME_STORAGE_KEY,
  useBrowser,
  useOwnServer,
} from "./support";

// Written resolutions from proposal to certificate: the founder proposes one, each director signs the exact text
// in their own browser (two with a passkey held by Chromium's virtual authenticator, one with the password and a
// code from an authenticator app, the founder with the password), and the decided resolution shows its outcome, its
// certificate as JSON and its PDF filed in the library. Passkeys need a host name, so this file runs its own server
// at http://localhost:<port>, as the passkeys flow does.

const browser = useBrowser();
const ownServer = useOwnServer();

type Viewport = { width: number; height: number };
type Member = Board["members"][number];

const resolutionText = (title: string) =>
  [
    `# ${title}`,
    "",
    "RESOLVED, that the Company adopt the FY27 budget as presented to the board, and in particular:",
    "",
    "- capital expenditure of **£2,000,000** for the new plant;",
    "- a hiring plan of twelve engineers over the year.",
  ].join("\n");

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** A page of this file's server, with a virtual authenticator that verifies its user when `passkeys` is set. */
async function openAt(viewport: Viewport, options: { passkeys?: boolean; dark?: { token: string; id: number } } = {}): Promise<Page> {
  const { page } = await browser.openPage(viewport);
  if (options.dark) {
    await apiAs(options.dark, "PUT", `/api/users/${options.dark.id}/preferences`, { darkMode: true });
    await page.addInitScript((key) => localStorage.setItem(key, "dark"), THEME_STORAGE_KEY);
  }
  if (options.passkeys) await addVirtualAuthenticator(page);
  return page;
}

/** Signs in through the form and waits for the dashboard. */
async function signInAt(page: Page, credentials: { username: string; password: string }) {
  await signIn(page, credentials, { from: `${ownServer.origin()}/` });
  await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
}

/** A director signed in with a passkey registered in Settings → Security (the password confirms it first). */
async function directorWithPasskey(member: Member, viewport: Viewport): Promise<Page> {
  const page = await openAt(viewport, { passkeys: true });
  await signInAt(page, memberCredentials(member));
  await page.goto(`${ownServer.origin()}/settings`);
  await page.getByRole("tab", { name: "Security" }).click();
  await page.getByRole("heading", { level: 2, name: "Passkeys" }).waitFor();
  await page.getByLabel("Name of the new passkey").fill(`${member.firstName}'s laptop`);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await confirmItsYou(page, setUpPassword);
  await page.getByText("Passkey added").first().waitFor();
  await page.getByRole("list", { name: "Your passkeys" }).getByText(`${member.firstName}'s laptop`).waitFor();
  return page;
}

/** The founder proposes a written resolution from Resolutions → New Resolution; answers its id. */
async function proposeWritten(page: Page, title: string, shot: string): Promise<number> {
  await page.goto(`${ownServer.origin()}/resolutions`);
  await page.getByRole("heading", { level: 1, name: "Board Resolutions" }).waitFor();
  await page.getByRole("button", { name: "New Resolution" }).click();
  const create = page.getByRole("dialog", { name: "New Resolution" });
  await create.waitFor();
  await create.getByLabel("Title").fill(title);
  await create.getByRole("radio", { name: "Written resolution", exact: true }).check();
  await create.getByLabel("The exact text").fill(resolutionText(title));
  // Neither a type nor a deadline: the company's rule (unanimous by default) and its lapse.
  await create
    .getByRole("note")
    .getByText(/under the company's rule, every eligible director must agree; lapses after 28 days/)
    .waitFor();
  expect(await create.getByLabel("Deadline").count()).toBe(0);
  await create.getByRole("button", { name: "Preview" }).click();
  await create.getByRole("region", { name: "Preview of the text" }).getByRole("heading", { name: title }).waitFor();
  await checkScreen(page, shot);
  await create.getByRole("button", { name: "Edit the text" }).click();
  const created = page.waitForResponse(
    (response) => new URL(response.url()).pathname === "/api/resolutions" && response.request().method() === "POST",
  );
  await create.getByRole("button", { name: "Create Resolution" }).click();
  const answer = await created;
  expect(answer.status()).toBe(201);
  await page.getByText("The directors have been asked to sign.").first().waitFor();
  await create.waitFor({ state: "detached" });
  return ((await answer.json()) as { id: number }).id;
}

/** Opens /resolutions/:id: a written resolution opens its details, where it is signed. */
async function openResolution(page: Page, id: number, title: string): Promise<Locator> {
  await page.goto(`${ownServer.origin()}/resolutions/${id}`);
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.getByRole("heading", { name: "The text" }).waitFor();
  return dialog;
}

/** Chooses 'I agree' and waits for the signing step, which asks for the passkey or the password. */
async function chooseAgree(dialog: Locator, button: "Sign with a passkey" | "Sign with my password"): Promise<Locator> {
  await dialog.getByRole("group", { name: "Your decision" }).getByRole("button", { name: "I agree" }).click();
  const form = dialog.getByRole("form", { name: "Sign: I agree" });
  await form.getByRole("button", { name: button }).waitFor();
  return form;
}

async function signWithPasskey(page: Page, id: number, title: string, shot?: string) {
  const dialog = await openResolution(page, id, title);
  const form = await chooseAgree(dialog, "Sign with a passkey");
  await form.getByText("Your device will ask for your fingerprint, face or PIN").waitFor();
  await form.getByRole("button", { name: "Sign with a passkey" }).scrollIntoViewIfNeeded();
  if (shot) await checkScreen(page, shot);
  await form.getByRole("button", { name: "Sign with a passkey" }).click();
  await dialog.getByText("You signed “I agree” with a passkey").waitFor();
  await form.waitFor({ state: "detached" });
}

/** The text's SHA-256 as the open resolution shows it. */
const shownHash = (dialog: Locator) => dialog.getByLabel("SHA-256 of the text").textContent();

describe("written resolutions", () => {
  it("is proposed, signed by passkeys, a password and code, and a password, and passes with its certificate filed (1280 px)", async () => {
    const board = await boardWithMembers();
    const [avery, blake, casey] = board.members as [Member, Member, Member];
    const title = uniqueName("Adopt the FY27 budget ");

    // Casey has an authenticator app and no passkey: the sign-in asks for a code too.
    const caseySession = await memberSession(casey);
    const { app, usedStep } = await authenticatorThroughApi({ token: caseySession.token, password: setUpPassword });
    const caseyPage = await openAt(desktop);
    await signIn(caseyPage, memberCredentials(casey), { from: `${ownServer.origin()}/` });
    const signInCode = await codeAfter(app, usedStep);
    await caseyPage.getByLabel("Authentication code").fill(signInCode.code);
    await caseyPage.getByRole("button", { name: "Verify" }).click();
    await caseyPage.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();

    // Avery and Blake each register a passkey in their own browser.
    const averyPage = await directorWithPasskey(avery, desktop);
    const blakePage = await directorWithPasskey(blake, desktop);

    // The founder proposes it: the text as written and its SHA-256 show, nobody has signed, four are awaited.
    const founder = await openAt(desktop);
    await signInAt(founder, board.founder);
    const id = await proposeWritten(founder, title, "written-new-1280");
    const card = founder.getByRole("tabpanel", { name: "Pending" }).getByRole("article", { name: title });
    await card.getByText(/^Written resolution · Lapses: /).waitFor();
    await card.getByRole("button", { name: "Read and sign" }).click();
    const proposed = founder.getByRole("dialog", { name: title });
    await proposed.getByRole("heading", { name: "The text" }).waitFor();
    expect(await shownHash(proposed)).toBe(sha256(resolutionText(title)));
    await proposed.getByRole("heading", { name: "Not yet signed (4)" }).waitFor();
    // The founder may nudge the others, not themselves.
    const awaiting = proposed.getByRole("list", { name: "Not yet signed" });
    await awaiting.getByRole("button", { name: `Nudge ${avery.firstName} ${avery.lastName}` }).waitFor();
    expect(await awaiting.getByRole("button").count()).toBe(3);
    await awaiting.getByText(`${board.founder.firstName} ${board.founder.lastName}`).waitFor();
    await proposed.getByRole("tab", { name: "As written" }).click();
    await proposed.getByText("- capital expenditure of **£2,000,000** for the new plant;").waitFor();
    await checkScreen(founder, "written-open-founder-1280");

    // The passkey directors sign from the resolution's link; the browser's authenticator signs the statement.
    await signWithPasskey(averyPage, id, title, "written-sign-passkey-1280");
    await signWithPasskey(blakePage, id, title);

    // Casey signs with the password and the next code of the app.
    const caseyDialog = await openResolution(caseyPage, id, title);
    expect(await shownHash(caseyDialog)).toBe(sha256(resolutionText(title)));
    const caseyForm = await chooseAgree(caseyDialog, "Sign with my password");
    await caseyForm.getByLabel("Password", { exact: true }).fill(setUpPassword);
    await caseyForm.getByLabel("Code from your authenticator app").fill((await codeAfter(app, signInCode.step)).code);
    await caseyForm.getByRole("button", { name: "Sign with my password" }).scrollIntoViewIfNeeded();
    await checkScreen(caseyPage, "written-sign-password-code-1280");
    await caseyForm.getByRole("button", { name: "Sign with my password" }).click();
    await caseyDialog.getByText("You signed “I agree” with the password and a code").waitFor();

    // The founder, eligible too, signs last with the password: every eligible director has agreed, so it passes.
    const founderDialog = await openResolution(founder, id, title);
    await founderDialog.getByRole("heading", { name: "Signed (3)" }).waitFor();
    const founderForm = await chooseAgree(founderDialog, "Sign with my password");
    expect(await founderForm.getByLabel("Code from your authenticator app").count()).toBe(0);
    await founderForm.getByLabel("Password", { exact: true }).fill(setUpPassword);
    await founderForm.getByRole("button", { name: "Sign with my password" }).click();
    const outcome = founderDialog.getByRole("region", { name: "Passed" });
    await outcome.waitFor();
    // The signing form is gone: the outcome has the focus, so a screen reader says it.
    const outcomeHeading = outcome.getByRole("heading", { name: "Passed" });
    await expect.poll(() => outcomeHeading.evaluate((heading) => heading === document.activeElement)).toBe(true);
    await outcome.getByText("Passed: all 4 eligible directors agreed", { exact: false }).waitFor();
    await outcome.getByText("Effective", { exact: true }).waitFor();
    await outcome.getByText(`${avery.firstName} ${avery.lastName}: I agree (with a passkey)`, { exact: false }).waitFor();
    await checkScreen(founder, "written-decided-1280");

    // The certificate's JSON, through the page's link: approved, four signatures, each by its method.
    const [download] = await Promise.all([
      founder.waitForEvent("download"),
      outcome.getByRole("link", { name: "Certificate (JSON)" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`resolution-${id}-certificate.json`);
    const certificate = JSON.parse(await readFile(await download.path(), "utf8")) as WrittenCertificate;
    expect(certificate).toMatchObject({ procedure: "written", resolutionId: id, outcome: "approved", title });
    expect(certificate.textSha256).toBe(sha256(resolutionText(title)));
    expect(certificate.eligible).toHaveLength(4);
    const methods = Object.fromEntries(certificate.signatures.map((signature) => [signature.userId, signature.method]));
    expect(methods).toEqual({ [avery.id]: "passkey", [blake.id]: "passkey", [casey.id]: "password+totp", [board.founder.id]: "password" });
    expect(certificate.signatures.every((signature) => signature.decision === "agree")).toBe(true);
    for (const signature of certificate.signatures.filter((each) => each.method === "passkey")) {
      expect(signature).toMatchObject({ credentialId: expect.any(String), publicKey: expect.any(String), signature: expect.any(String) });
    }
    expect(certificate.effectiveAt).not.toBeNull();

    // Its PDF is in the library, under Resolution Certificates.
    await outcome.getByRole("link", { name: "Certificate PDF in the library" }).click();
    await founder.getByRole("heading", { level: 1, name: "Documents" }).waitFor();
    expect(await founder.getByLabel("Search documents").inputValue()).toBe("Resolution Certificates");
    const pdfName = `Certificate of written resolution #${id} - ${title}.pdf`;
    const filed = founder.getByRole("listitem").filter({ hasText: pdfName });
    await filed.getByText("Resolution Certificates", { exact: true }).waitFor();
    // Quorum filed it, not a person.
    await filed.getByText(/^Added on /).waitFor();
    const [pdf] = await Promise.all([founder.waitForEvent("download"), filed.getByRole("link", { name: `Download ${pdfName}` }).click()]);
    expect((await readFile(await pdf.path())).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    await expectAccessible(founder);
    await screenshot(founder, "written-library-1280");

    // The list files it under Completed, Passed.
    await founder.goto(`${ownServer.origin()}/resolutions`);
    await founder.getByRole("tab", { name: "Completed" }).click();
    const decided = founder.getByRole("tabpanel", { name: "Completed" }).getByRole("article", { name: title });
    await decided.getByText("Approved", { exact: true }).waitFor();
  }, 240_000);

  it("fits 375 px: a passkey director signs on a phone, the founder (dark mode) proposes and signs last", async () => {
    const board = await boardWithMembers();
    const [avery, blake, casey] = board.members as [Member, Member, Member];
    const title = uniqueName("Open a Lisbon office ");
    const averyPage = await directorWithPasskey(avery, mobile);

    const founder = await openAt(mobile, { dark: board.founder });
    await signInAt(founder, board.founder);
    expect(await isDarkTheme(founder)).toBe(true);
    const id = await proposeWritten(founder, title, "written-new-375-dark");

    await signWithPasskey(averyPage, id, title, "written-sign-passkey-375");
    // Blake and Casey sign through the API (set-up): the password alone, as directors without a second factor.
    for (const member of [blake, casey]) {
      await apiAs(await memberSession(member), "POST", `/api/resolutions/${id}/signatures`, { decision: "agree", password: setUpPassword });
    }

    const dialog = await openResolution(founder, id, title);
    await dialog.getByRole("heading", { name: "Signed (3)" }).waitFor();
    const form = await chooseAgree(dialog, "Sign with my password");
    await form.getByLabel("Password", { exact: true }).fill(setUpPassword);
    await form.getByRole("button", { name: "Sign with my password" }).scrollIntoViewIfNeeded();
    await checkScreen(founder, "written-signing-375-dark");
    await form.getByRole("button", { name: "Sign with my password" }).click();
    const outcome = dialog.getByRole("region", { name: "Passed" });
    await outcome.getByText("Passed: all 4 eligible directors agreed", { exact: false }).waitFor();
    await checkScreen(founder, "written-decided-375-dark");

    // The director who signed by passkey sees the same outcome on the phone, in the light theme.
    const decided = await openResolution(averyPage, id, title);
    await decided.getByRole("region", { name: "Passed" }).waitFor();
    await checkScreen(averyPage, "written-decided-375");
  }, 180_000);
});
