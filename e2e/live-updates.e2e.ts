import type { Page } from "playwright-core";
import { apiAs, boardWithMembers, memberSession, uniqueName } from "./set-up";
import { mobile, screenshot, signIn, useBrowser } from "./support";

const browser = useBrowser();

/** Resolves once the page's live event stream has answered 200. */
function streamOpened(page: Page) {
  return page.waitForResponse((response) => new URL(response.url()).pathname === "/api/events" && response.status() === 200);
}

describe("live updates in the browser", () => {
  it("shows another member's vote in an open vote dialog within a second, without polling, and a new paper in the library", async () => {
    const board = await boardWithMembers();
    const [avery, blake] = board.members as [(typeof board.members)[0], (typeof board.members)[0]];
    const title = uniqueName("Approve the auditors ");
    const resolution = await apiAs<{ id: number }>(board.founder, "POST", "/api/resolutions", {
      title,
      description: "Reappoint the auditors for FY27.",
      type: "Ordinary",
      deadline: new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString(),
      documentIds: [],
    });

    const { page } = await browser.openPage(mobile);
    const polls: number[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === `/api/resolutions/${resolution.id}/votes`) polls.push(Date.now());
    });
    const opened = streamOpened(page);
    await signIn(page, board.founder);
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    await opened;
    // The page loads anew, so its stream opens anew: the vote comes once it is open.
    const reopened = streamOpened(page);
    await page.goto(`/resolutions/${resolution.id}`);
    const dialog = page.getByRole("dialog", { name: "Cast Your Vote" });
    await dialog.waitFor();
    await reopened;
    const yes = dialog.getByRole("status").locator("div", { hasText: "Yes" }).locator("dd");
    await yes.filter({ hasText: "0" }).waitFor();

    const session = await memberSession(avery);
    await apiAs(session, "POST", `/api/resolutions/${resolution.id}/vote`, { vote: "yes" });
    const voted = Date.now();
    await yes.filter({ hasText: "1" }).waitFor({ timeout: 1000 });
    await screenshot(page, "live-vote-375");

    // Another vote a little later also arrives by the stream: the 5-second poll stays off while it is open.
    await page.waitForTimeout(5500);
    const other = await memberSession(blake);
    await apiAs(other, "POST", `/api/resolutions/${resolution.id}/vote`, { vote: "yes" });
    await yes.filter({ hasText: "2" }).waitFor({ timeout: 1000 });
    expect(polls.filter((at) => at > voted)).toEqual([]);

    // A paper another member adds appears in the open library without a reload.
    await page.keyboard.press("Escape");
    const libraryStream = streamOpened(page);
    await page.goto("/documents");
    await libraryStream;
    const paper = `${uniqueName("Audit letter ")}.txt`;
    await apiAs(session, "POST", "/api/documents", {
      name: paper,
      category: "Financial",
      content: `data:text/plain;base64,${Buffer.from("Engagement letter").toString("base64")}`,
    });
    await page.getByText(paper).first().waitFor({ timeout: 2000 });
  });
});
