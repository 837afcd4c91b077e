import { screen, waitFor, within } from "@testing-library/react";
import * as companiesApi from "@shared/api/companies";
import * as documentsApi from "@shared/api/documents";
import { morePagesMatchedMessage } from "@shared/search";
import { buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { buildMeetingDocument } from "@/testing/meeting-fixtures";
import { renderApp } from "@/testing/render";
import { buildSearchResult, searchPage, serveSearch } from "@/testing/search-fixtures";
import { server } from "@/testing/server";

// The page composes the search with the company's meetings (its filter) and opens results in other features' pages.

const founder = buildUser({ id: 1, companyId: 1 });

async function openSearchPage(path: string) {
  const view = renderApp({ signedInAs: founder, path });
  await screen.findByRole("heading", { level: 1, name: "Search" }, { timeout: 15_000 });
  return view;
}

describe("the search page", () => {
  it("searches the address's query, and each filter changes the request and the address", async () => {
    const search = serveSearch(() => searchPage([buildSearchResult({ id: 5 })]));
    server.use(
      search.handler,
      handle(documentsApi.listDocuments, () => [
        { ...buildMeetingDocument({ id: 40, title: "Q3 board meeting", date: "2026-06-02T09:00:00.000Z" }), truncated: false },
      ]),
      handle(companiesApi.listCompanies, () => [
        { id: 1, name: "Acme Holdings", logoUrl: null, industry: null, role: "founder" },
        { id: 2, name: "Beta Ventures", logoUrl: null, industry: null, role: "member" },
      ]),
    );
    const { user, currentPath } = await openSearchPage("/search?q=budget");
    expect(screen.getByRole("searchbox", { name: "Search the board's record" })).toHaveValue("budget");
    expect(await screen.findByRole("link", { name: /Q3 board paper/ })).toHaveAttribute(
      "href",
      "/documents/5/read?page=4&highlight=budget+Revenue",
    );
    expect(search.asked).toEqual([{ q: "budget" }]);

    await user.click(screen.getByRole("combobox", { name: "Kind" }));
    await user.click(await screen.findByRole("option", { name: "Minutes" }));
    await waitFor(() => expect(search.asked.at(-1)).toEqual({ q: "budget", kind: "minutes" }));

    await user.click(screen.getByRole("combobox", { name: "Meeting" }));
    await user.click(await screen.findByRole("option", { name: /Q3 board meeting/ }));
    await waitFor(() => expect(search.asked.at(-1)).toEqual({ q: "budget", kind: "minutes", meetingId: 40 }));

    await user.type(screen.getByLabelText("From"), "2026-01-01");
    await user.type(screen.getByLabelText("To"), "2026-03-31");
    await user.click(screen.getByRole("switch", { name: "All my boards" }));
    const all = { q: "budget", kind: "minutes", meetingId: 40, from: "2026-01-01", to: "2026-03-31", scope: "all" };
    await waitFor(() => expect(search.asked.at(-1)).toEqual(all));
    expect(currentPath()).toBe("/search?q=budget&scope=all&kind=minutes&meetingId=40&from=2026-01-01&to=2026-03-31");

    const box = screen.getByRole("searchbox", { name: "Search the board's record" });
    await user.clear(box);
    await user.type(box, "cash flow");
    await waitFor(() => expect(search.asked.at(-1)).toEqual({ ...all, q: "cash flow" }));
    expect(currentPath()).toBe("/search?q=cash+flow&scope=all&kind=minutes&meetingId=40&from=2026-01-01&to=2026-03-31");
  });

  it("loads more with the next cursor, names the papers that were not searched, and says when more pages matched than were ranked", async () => {
    const search = serveSearch(({ cursor }) =>
      cursor === "page-2"
        ? searchPage([buildSearchResult({ id: 21, title: "Second page's paper" })], {
            unsearched: [{ documentId: 70, title: "Scanned lease.pdf", reason: "scanned" }],
          })
        : searchPage([buildSearchResult({ id: 20, title: "First page's paper" })], {
            nextCursor: "page-2",
            morePagesMatched: true,
            unsearched: [
              { documentId: 70, title: "Scanned lease.pdf", reason: "scanned" },
              { documentId: 71, title: "Fresh upload.pdf", reason: "pending" },
            ],
          }),
    );
    server.use(search.handler);
    const { user } = await openSearchPage("/search?q=lease");
    const results = await screen.findByRole("list", { name: "Results" });
    expect(within(results).getAllByRole("link")).toHaveLength(1);
    const notSearched = screen.getByRole("region", { name: "Not searched" });
    expect(
      within(notSearched)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Scanned lease.pdf was not searched: no text (scanned)", "Fresh upload.pdf was not searched: text not read yet"]);
    expect(screen.getByText(morePagesMatchedMessage)).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Load more" }));
    await waitFor(() => expect(within(results).getAllByRole("link")).toHaveLength(2));
    expect(within(results).getAllByRole("link")[1]).toHaveTextContent("Second page's paper");
    expect(search.asked.at(-1)).toEqual({ q: "lease", cursor: "page-2" });
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
    expect(within(notSearched).getAllByRole("listitem")).toHaveLength(2);
  });

  it("says when nothing matched, shows the server's refusal as it words it, and tries again", async () => {
    let refuse = true;
    server.use(
      serveSearch(({ q }) => (refuse && q === "bad" ? apiError(400, "The cursor is not one this search gave") : searchPage([]))).handler,
    );
    const { user } = await openSearchPage("/search?q=bad");
    expect(await screen.findByRole("alert")).toHaveTextContent("The cursor is not one this search gave");
    refuse = false;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("No results for “bad”")).toBeInTheDocument();
  });

  it("asks for nothing without a query", async () => {
    const search = serveSearch(() => searchPage([]));
    server.use(search.handler);
    await openSearchPage("/search");
    expect(screen.getByText("Type something to search for.")).toBeInTheDocument();
    expect(search.asked).toEqual([]);
  });

  it("opens a minutes hit at the meeting's minutes, and a resolution in its dialog", async () => {
    server.use(
      serveSearch(() =>
        searchPage([
          buildSearchResult({ id: 8, kind: "minutes", title: "Minutes of the Q3 meeting", page: null, meetingId: 40 }),
          buildSearchResult({ id: 9, kind: "resolution", title: "Approve the budget", page: null }),
        ]),
      ).handler,
    );
    const { user, currentPath } = await openSearchPage("/search?q=budget");
    const minutes = await screen.findByRole("link", { name: /Minutes of the Q3 meeting/ });
    expect(minutes).toHaveAttribute("href", "/meetings/40#meeting-minutes");
    await user.click(screen.getByRole("link", { name: /Approve the budget/ }));
    await waitFor(() => expect(currentPath()).toBe("/resolutions/9"));
  });
});
