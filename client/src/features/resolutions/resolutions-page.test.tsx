import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import * as resolutionsApi from "@shared/api/resolutions";
import type { Certificate, VoteCounts } from "@shared/resolutions";
import { freezeDateAt } from "@/testing/clock";
import { buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { runInTimeZone } from "@/testing/time-zone";
import { findToast, findToastBehindModal } from "@/testing/toasts";
import { at, buildResolution, details, me, now, serve } from "@/testing/resolution-fixtures";

// Local dates are visible away from UTC: the deadline is the end of the chosen day in New York.
runInTimeZone("America/New_York");

freezeDateAt(now);

const titlesIn = (panel: HTMLElement) =>
  within(panel)
    .queryAllByRole("heading", { level: 2 })
    .map((heading) => heading.textContent);

describe("/resolutions tabs", () => {
  it("puts a resolution whose deadline is now under Expired and one a millisecond later under Pending; decided ones under Completed", async () => {
    serve([
      buildResolution({ id: 1, title: "Open a millisecond more", deadline: at(1), voteCounts: { yes: 2, no: 1, abstain: 0 } }),
      buildResolution({ id: 2, title: "Deadline now", deadline: at(0) }),
      buildResolution({ id: 3, title: "Passed", status: "approved", deadline: at(-1000) }),
      buildResolution({ id: 4, title: "Failed", status: "rejected", deadline: at(86_400_000) }),
    ]);
    const { user } = renderApp({ path: "/resolutions", signedInAs: me });
    // The first render loads the page's code.
    await screen.findByRole("heading", { level: 1, name: "Board Resolutions" }, { timeout: 5000 });
    const pending = await screen.findByRole("tabpanel", { name: "Pending" });
    await within(pending).findByText("Open a millisecond more");
    expect(titlesIn(pending)).toEqual(["Open a millisecond more"]);
    const card = within(pending).getByRole("article", { name: "Open a millisecond more" });
    expect(within(card).getByText("Pending")).toBeInTheDocument();
    expect(within(card).getByText("Ordinary · Deadline: June 1, 2026")).toBeInTheDocument();
    expect(within(card).getByText("Yes").nextSibling).toHaveTextContent("2");

    await user.click(screen.getByRole("tab", { name: "Expired" }));
    const expired = await screen.findByRole("tabpanel", { name: "Expired" });
    expect(titlesIn(expired)).toEqual(["Deadline now"]);
    expect(within(expired).getByText("Expired")).toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Completed" }));
    const completed = await screen.findByRole("tabpanel", { name: "Completed" });
    expect(titlesIn(completed)).toEqual(["Passed", "Failed"]);
    expect(within(completed).getByText("Approved")).toBeInTheDocument();
    expect(within(completed).getByText("Rejected")).toBeInTheDocument();
  });

  it("searches titles and descriptions case-insensitively", async () => {
    serve([
      buildResolution({ id: 11, title: "Budget", description: "Capex" }),
      buildResolution({ id: 12, title: "Auditor", description: "Appoint KPMG" }),
    ]);
    const { user } = renderApp({ path: "/resolutions", signedInAs: me });
    const pending = await screen.findByRole("tabpanel", { name: "Pending" });
    await within(pending).findByText("Budget");
    await user.type(screen.getByRole("searchbox", { name: "Search resolutions" }), "kpmg");
    expect(titlesIn(pending)).toEqual(["Auditor"]);
  });
});

describe("Cast Your Vote", () => {
  it("reads 'Vote Now', then 'Change Vote' once the user has voted", async () => {
    const resolution = buildResolution({ id: 21, title: "Budget" });
    let userVote: VoteCounts["userVote"] = null;
    serve([resolution], { votes: () => ({ yes: userVote ? 1 : 0, no: 0, abstain: 0, total: userVote ? 1 : 0, userVote }) });
    const sent: unknown[] = [];
    server.use(
      handle(
        resolutionsApi.castVote,
        ({ body }) => {
          sent.push(body);
          userVote = "yes";
          return { yes: 1, no: 0, abstain: 0, total: 1, userVote };
        },
        { params: { id: 21 } },
      ),
    );
    const { user } = renderApp({ path: "/resolutions", signedInAs: me });
    await user.click(await screen.findByRole("button", { name: "Cast Your Vote" }));
    const dialog = await screen.findByRole("dialog", { name: "Cast Your Vote" });
    await user.click(within(dialog).getByRole("radio", { name: "Yes" }));
    await user.type(within(dialog).getByRole("textbox", { name: /Comment/ }), "Sound plan");
    await user.click(within(dialog).getByRole("button", { name: "Vote Now" }));
    expect(await findToast("Vote recorded")).toBeInTheDocument();
    expect(sent).toEqual([{ vote: "yes", comment: "Sound plan" }]);
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Cast Your Vote" })).not.toBeInTheDocument());

    await user.click(screen.getByRole("button", { name: "Cast Your Vote" }));
    const again = await screen.findByRole("dialog", { name: "Cast Your Vote" });
    expect(await within(again).findByRole("button", { name: "Change Vote" })).toBeInTheDocument();
    expect(within(again).getByRole("radio", { name: "Yes" })).toBeChecked();
  });

  it("says so when the vote fails", async () => {
    serve([buildResolution({ id: 22 })]);
    server.use(handle(resolutionsApi.castVote, () => apiError(409, "This resolution has already been decided"), { params: { id: 22 } }));
    const { user } = renderApp({ path: "/resolutions/22", signedInAs: me });
    const dialog = await screen.findByRole("dialog", { name: "Cast Your Vote" });
    await user.click(within(dialog).getByRole("radio", { name: "No" }));
    await user.click(within(dialog).getByRole("button", { name: "Vote Now" }));
    const toast = await findToastBehindModal("Error");
    expect(within(toast).getByText("Failed to submit vote. Please try again.")).toBeInTheDocument();
    expect(toast).toHaveClass("destructive");
  });

  it("refreshes the counts every 5000 ms while shown, and stops once closed", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    vi.setSystemTime(now);
    let polls = 0;
    serve([buildResolution({ id: 23, title: "Polled" })], {
      votes: () => {
        polls += 1;
        return { yes: polls, no: 0, abstain: 0, total: polls, userVote: null };
      },
    });
    renderApp({ path: "/resolutions/23", signedInAs: me });
    const dialog = await screen.findByRole("dialog", { name: "Cast Your Vote" });
    const yesCount = () => within(within(dialog).getByRole("status")).getByText("Yes").nextSibling;
    await waitFor(() => expect(yesCount()).toHaveTextContent("1"));
    await act(() => vi.advanceTimersByTimeAsync(4900));
    expect(polls).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(100));
    await waitFor(() => expect(yesCount()).toHaveTextContent("2"));
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(yesCount()).toHaveTextContent("3"));

    fireEvent.keyDown(dialog, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Cast Your Vote" })).not.toBeInTheDocument());
    const afterClose = polls;
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(polls).toBe(afterClose);
  });
});

describe("the certificate", () => {
  it("opens from /resolutions/:id for a decided resolution and prints", async () => {
    const certificate: Certificate = {
      decidedAt: "2026-05-30T12:00:00.000Z",
      outcome: "approved",
      rule: "a Special resolution needs at least 75% of the yes and no votes",
      quorum: { rule: "more than half of the eligible voters", required: 2, present: 3, met: true },
      eligible: [
        { userId: 1, name: "Ada Lovelace", role: "founder" },
        { userId: 2, name: "Alan Turing", role: "member" },
        { userId: 3, name: "Grace Hopper", role: "admin" },
      ],
      recused: [{ userId: 4, name: "Carol Conflicted", reason: "Owns the supplier" }],
      votes: [
        { userId: 1, name: "Ada Lovelace", vote: "yes", comment: "Agreed", castAt: "2026-05-29T10:00:00.000Z" },
        { userId: 2, name: "Alan Turing", vote: "yes", comment: null, castAt: "2026-05-29T11:00:00.000Z" },
        { userId: 3, name: "Grace Hopper", vote: "yes", comment: null, castAt: "2026-05-30T12:00:00.000Z" },
      ],
      yes: 3,
      no: 0,
      abstain: 0,
      explanation:
        "Approved: 3 yes, 0 no, 0 abstain of 3 eligible (1 recused); a Special resolution needs at least 75% of the yes and no votes; quorum 2 of 3 met",
    };
    const decided = buildResolution({
      id: 70,
      title: "Decided",
      type: "Special",
      status: "approved",
      explanation: certificate.explanation,
      voteCounts: { yes: 3, no: 0, abstain: 0 },
    });
    serve([decided]);
    server.use(
      handle(
        resolutionsApi.getResolution,
        () =>
          details(decided, {
            certificate,
            voters: [],
            documents: [
              { id: 9, name: "Plan.pdf", fileType: "application/pdf", hasFile: true, version: 3, replacedAt: "2026-06-02T18:05:00.000Z" },
              { id: 10, name: "Terms.pdf", fileType: "application/pdf", hasFile: true, version: 1, replacedAt: null },
            ],
          }),
        { params: { id: 70 } },
      ),
    );
    const print = vi.spyOn(window, "print").mockImplementation(() => undefined);
    const { user } = renderApp({ path: "/resolutions/70", signedInAs: me });
    const dialog = await screen.findByRole("dialog", { name: "Decided" });
    const section = await within(dialog).findByRole("region", { name: "Tally certificate" });
    expect(within(section).getByText(certificate.explanation)).toBeInTheDocument();
    expect(
      within(section).getByText("Ada Lovelace (Founder / Admin), Alan Turing (Board Member), Grace Hopper (Admin)"),
    ).toBeInTheDocument();
    expect(within(section).getByText("Carol Conflicted: Owns the supplier")).toBeInTheDocument();
    expect(within(section).getByText("2 votes (more than half of the eligible voters); 3 cast, met")).toBeInTheDocument();
    const rows = within(section).getAllByRole("row");
    expect(rows).toHaveLength(4);
    expect(within(rows[1]!).getByText("Agreed")).toBeInTheDocument();
    // Each paper at its latest version: a replaced one says which and when (in the viewer's zone), a first one nothing.
    const papers = within(within(dialog).getByRole("region", { name: "Documents" })).getAllByRole("listitem");
    expect(papers.map((paper) => paper.textContent)).toEqual(["Plan.pdf v3 · replaced 2 Jun 14:05", "Terms.pdf"]);
    expect(within(papers[0]!).getByText("v3 · replaced 2 Jun 14:05")).toBeInTheDocument();
    expect(dialog).toHaveAttribute("data-print-sheet");
    await user.click(within(section).getByRole("button", { name: "Print certificate" }));
    expect(print).toHaveBeenCalledOnce();
    print.mockRestore();
  });
});

describe("dashboard", () => {
  it("lists pending resolutions with 'Vote Now' links, and says when there are none", async () => {
    server.use(
      handle(
        resolutionsApi.pendingResolutions,
        () => [
          {
            id: 80,
            title: "Approve the auditor",
            createdAt: "2026-05-20T15:00:00.000Z",
            deadline: "2026-06-08T03:59:59.999Z",
            procedure: "vote",
            awaitingYourSignature: false,
          },
        ],
        { params: { companyId: 3 } },
      ),
    );
    renderApp({ path: "/", signedInAs: me });
    const panel = await screen.findByRole("region", { name: "Pending Resolutions" });
    expect(await within(panel).findByText("Approve the auditor")).toBeInTheDocument();
    expect(within(panel).getByText("Created on May 20, 2026 • Expires: June 7, 2026")).toBeInTheDocument();
    expect(within(panel).getByRole("link", { name: /Vote Now/ })).toHaveAttribute("href", "/resolutions/80");
    expect(within(panel).getByRole("link", { name: "View all" })).toHaveAttribute("href", "/resolutions");
  });

  it("shows 'No pending resolutions.' and 'Create resolution' opens the New Resolution dialog on /resolutions", async () => {
    server.use(handle(resolutionsApi.pendingResolutions, () => [], { params: { companyId: 3 } }));
    serve([]);
    const { user, currentPath } = renderApp({ path: "/", signedInAs: me });
    const panel = await screen.findByRole("region", { name: "Pending Resolutions" });
    expect(await within(panel).findByText("No pending resolutions.")).toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Create resolution" }));
    expect(await screen.findByRole("dialog", { name: "New Resolution" })).toBeInTheDocument();
    expect(currentPath()).toBe("/resolutions");
  });
});

describe("the quorum in Company Settings", () => {
  it("lets a founder set a percentage, and refuses one out of range", async () => {
    const sent: unknown[] = [];
    server.use(
      handle(
        resolutionsApi.updateQuorum,
        ({ body }) => {
          sent.push(body);
          return { quorumPercent: body.quorumPercent, rule: `at least ${body.quorumPercent}% of the eligible voters` };
        },
        { params: { companyId: 3 } },
      ),
    );
    const { user } = renderApp({ path: "/company-settings", signedInAs: buildUser({ id: 9, companyId: 3, role: "founder" }) });
    const field = await screen.findByRole("textbox", { name: "Quorum (% of eligible voters)" }, { timeout: 5000 });
    expect(screen.getByText("Now: more than half of the eligible voters.")).toBeInTheDocument();
    await user.type(field, "150");
    await user.click(screen.getByRole("button", { name: "Save quorum" }));
    expect(screen.getByText("Quorum must be a whole percentage from 1 to 100")).toBeInTheDocument();
    expect(sent).toEqual([]);
    await user.clear(field);
    await user.type(field, "60");
    await user.click(screen.getByRole("button", { name: "Save quorum" }));
    expect(await screen.findByText("Now: at least 60% of the eligible voters.")).toBeInTheDocument();
    expect(sent).toEqual([{ quorumPercent: 60 }]);
  });
});
