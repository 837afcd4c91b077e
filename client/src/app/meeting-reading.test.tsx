import { screen, waitFor, within } from "@testing-library/react";
import * as companiesApi from "@shared/api/companies";
import * as documentsApi from "@shared/api/documents";
import * as meetingsApi from "@shared/api/meetings";
import * as readingApi from "@shared/api/reading";
import { apiUrl } from "@/lib/api-client";
import { buildCompany } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import {
  buildAgendaItem,
  buildLibraryDocument,
  buildPageMeeting,
  pageUser,
  runOnMeetingPageClock,
  serveMeetingPage,
} from "@/testing/meeting-fixtures";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";

runOnMeetingPageClock();

const meeting = buildPageMeeting({ id: 60 });
const budget = buildLibraryDocument({
  id: 70,
  name: "Budget 2026.pdf",
  companyId: 3,
  version: 2,
  // 14:05 in New York.
  replacedAt: "2026-06-02T18:05:00.000Z",
  pages: 30,
  readingMinutes: 60,
  changedSinceRead: true,
  readVersion: 1,
});
const minutes = buildLibraryDocument({ id: 71, name: "Minutes May.pdf", companyId: 3, pages: 12, readingMinutes: 24 });

function servePage({ readReceipts = true } = {}) {
  serveMeetingPage({
    meeting,
    library: [budget, minutes],
    items: [
      buildAgendaItem({ id: 1, title: "Budget", purpose: "decision", documentIds: [70] }),
      buildAgendaItem({ id: 2, title: "Minutes", purpose: "noting", documentIds: [71, 70] }),
    ],
  });
  server.use(
    handle(readingApi.meetingReading, () => ({
      papers: [
        { documentId: 70, pages: 30, pagesRead: 13 },
        { documentId: 71, pages: 12, pagesRead: 5 },
      ],
      packShare: 18 / 42,
    })),
    handle(companiesApi.getCompanySettings, () => ({ company: buildCompany({ id: 3, readReceipts }), members: [] })),
  );
}

describe("reading a meeting's papers", () => {
  it("shows a director the pack's length, their own progress, each paper's facts and progress, and the purpose of each item", async () => {
    servePage();
    renderApp({ path: "/meetings/60", signedInAs: pageUser(9, "member") });
    const reading = await screen.findByRole("region", { name: "Your reading" });
    expect(await within(reading).findByText("Board pack: 42 pages · 1 h 24 min")).toBeInTheDocument();
    expect(await within(reading).findByText("You have opened 18 of 42 pages (43%)")).toBeInTheDocument();
    expect(
      await within(reading).findByText("Read receipts are on: the secretary can see whether you have opened each paper."),
    ).toBeInTheDocument();
    expect(within(reading).getByRole("link", { name: "Budget 2026.pdf changed since you read it: see what changed" })).toHaveAttribute(
      "href",
      "/documents/70/compare?from=1&to=2",
    );
    expect(within(reading).getByRole("link", { name: "Read the pack" })).toHaveAttribute("href", "/meetings/60/pack");
    // The reader's export, beside the papers.
    expect(within(reading).getByRole("button", { name: "Export my notes as Markdown" })).toBeInTheDocument();
    expect(within(reading).getByRole("button", { name: "Export my notes as PDF" })).toBeInTheDocument();

    const agenda = screen.getByRole("region", { name: "Agenda" });
    const items = within(agenda)
      .getAllByRole("listitem")
      .filter((li) => li.querySelector("h3"));
    expect(within(items[0]!).getByText("For decision")).toBeInTheDocument();
    expect(within(items[1]!).getByText("For noting")).toBeInTheDocument();
    expect(within(items[0]!).getByText("v2 · replaced 2 Jun 14:05")).toBeInTheDocument();
    expect(within(items[0]!).getByText("30 pages · 1 h")).toBeInTheDocument();
    expect(await within(items[0]!).findByText("13/30 pages")).toBeInTheDocument();
    expect(within(items[0]!).getByRole("link", { name: /Budget 2026.pdf changed since you read it/ })).toBeInTheDocument();
    expect(within(items[1]!).getByText("12 pages · 24 min")).toBeInTheDocument();
    expect(within(items[1]!).getByText("5/12 pages")).toBeInTheDocument();
    // Who opened what is the secretary's, not a director's.
    expect(screen.queryByRole("region", { name: "Who has opened the papers" })).not.toBeInTheDocument();
  });

  it("tells a director when read receipts are off", async () => {
    servePage({ readReceipts: false });
    renderApp({ path: "/meetings/60", signedInAs: pageUser(9, "member") });
    const reading = await screen.findByRole("region", { name: "Your reading" });
    expect(
      await within(reading).findByText("Read receipts are off: nobody can see whether you have opened the papers."),
    ).toBeInTheDocument();
  });

  it("shows founders which directors have opened the pack and each paper, in words", async () => {
    servePage();
    server.use(
      handle(readingApi.boardReading, () => [
        { userId: 8, name: "Grace Hopper", packOpened: true, opened: [70] },
        { userId: 9, name: "Alan Turing", packOpened: false, opened: [] },
      ]),
    );
    renderApp({ path: "/meetings/60", signedInAs: pageUser(7, "founder") });
    const panel = await screen.findByRole("region", { name: "Who has opened the papers" });
    const table = await within(panel).findByRole("table");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((cell) => cell.textContent),
    ).toEqual(["Director", "Pack", "Budget 2026.pdf", "Minutes May.pdf"]);
    const grace = within(table).getByRole("row", { name: /Grace Hopper/ });
    expect(
      within(grace)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["Opened the pack", "Opened Budget 2026.pdf", "Not opened Minutes May.pdf"]);
    const alan = within(table).getByRole("row", { name: /Alan Turing/ });
    expect(
      within(alan)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["Not opened the pack", "Not opened Budget 2026.pdf", "Not opened Minutes May.pdf"]);
  });

  it("says so when the board has turned read receipts off", async () => {
    servePage({ readReceipts: false });
    server.use(handle(readingApi.boardReading, () => apiError(403, "Read receipts are off")));
    renderApp({ path: "/meetings/60", signedInAs: pageUser(7, "founder") });
    const panel = await screen.findByRole("region", { name: "Who has opened the papers" });
    expect(await within(panel).findByText("Read receipts are off for this board")).toBeInTheDocument();
  });

  it("flags the papers changed since the director read them in the pack's reader, from the meeting page's reads", async () => {
    servePage();
    const agendaPath = new URL(apiUrl(meetingsApi.getAgenda, { params: { id: 60 } }), window.location.href).pathname;
    const libraryPath = new URL(apiUrl(documentsApi.listLibrary, { params: { companyId: 3 } }), window.location.href).pathname;
    const reads: string[] = [];
    onTestFinished(() => server.events.removeAllListeners());
    server.events.on("request:start", ({ request }) => void reads.push(new URL(request.url).pathname));
    const { user, currentPath } = renderApp({ path: "/meetings/60", signedInAs: pageUser(9, "member") });
    const reading = await screen.findByRole("region", { name: "Your reading" });
    await within(reading).findByRole("link", { name: /Budget 2026.pdf changed since you read it/ });
    await user.click(within(reading).getByRole("link", { name: "Read the pack" }));
    await waitFor(() => expect(currentPath()).toBe("/meetings/60/pack"));

    const changed = await screen.findByRole("list", { name: "Changed since you read them" });
    const flags = within(changed).getAllByRole("link");
    expect(flags.map((flag) => [flag.getAttribute("aria-label"), flag.getAttribute("href")])).toEqual([
      ["Budget 2026.pdf changed since you read it: see what changed", "/documents/70/compare?from=1&to=2"],
    ]);
    // The minutes, unchanged, are not flagged; the meeting page's agenda and library were read once, not again.
    expect(within(changed).queryByText("Minutes May.pdf")).not.toBeInTheDocument();
    expect([agendaPath, libraryPath].map((path) => reads.filter((read) => read === path).length)).toEqual([1, 1]);
  });
});
