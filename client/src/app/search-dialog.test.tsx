import { act, screen, waitFor, within } from "@testing-library/react";
import * as companiesApi from "@shared/api/companies";
import { buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { buildSearchResult, searchPage, serveSearch } from "@/testing/search-fixtures";
import { server } from "@/testing/server";
import { searchKeys } from "@/features/search/api/search-keys";

// The dialog lives in the shell and opens results in other features' pages (switching board first), so the app tests it.

const founder = buildUser({ id: 1, companyId: 1 });

async function openApp(path = "/documents") {
  const view = renderApp({ signedInAs: founder, path });
  await screen.findByRole("heading", { level: 1, name: "Documents" }, { timeout: 15_000 });
  return view;
}

/** Ctrl-K, and the search box once the dialog (loaded on first use) has it focused. */
async function openSearch(user: ReturnType<typeof renderApp>["user"]) {
  await user.keyboard("{Control>}k{/Control}");
  const box = await screen.findByRole("combobox", { name: "Search the board's record" });
  await waitFor(() => expect(box).toHaveFocus());
  return box;
}

describe("the search dialog", () => {
  it("opens on Ctrl-K and on Cmd-K anywhere in the app, closes on Escape and gives focus back", async () => {
    const { user } = await openApp();
    const button = screen.getByRole("button", { name: "Search" });
    act(() => button.focus());
    await user.keyboard("{Control>}k{/Control}");
    const dialog = await screen.findByRole("dialog", { name: "Search" });
    expect(within(dialog).getByRole("combobox", { name: "Search the board's record" })).toHaveFocus();
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(button).toHaveFocus();

    await user.keyboard("{Meta>}k{/Meta}");
    expect(await screen.findByRole("dialog", { name: "Search" })).toBeInTheDocument();
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    await user.click(button);
    expect(await screen.findByRole("dialog", { name: "Search" })).toBeInTheDocument();
  });

  it("shows the results as the user types, with their marks as <mark> and anything else in the snippet as text", async () => {
    const search = serveSearch(() =>
      searchPage([
        buildSearchResult({
          id: 5,
          snippet: "&lt;script&gt;alert(1)&lt;/script&gt; <mark>Revenue</mark> &amp; costs &quot;up&quot; &#39;24",
        }),
        buildSearchResult({ id: 9, kind: "resolution", title: "Approve the budget", page: null, snippet: "the <mark>revenue</mark> plan" }),
      ]),
    );
    server.use(search.handler);
    const { user } = await openApp();
    await openSearch(user);
    await user.keyboard("revenue");

    const results = await screen.findByRole("listbox", { name: "Results" });
    const options = await within(results).findAllByRole("option");
    expect(options).toHaveLength(2);
    expect(search.asked).toEqual([{ q: "revenue" }]);
    expect(options[0]).toHaveTextContent(`<script>alert(1)</script> Revenue & costs "up" '24`);
    expect(options[0]).toHaveTextContent("Paper · page 4");
    expect(options[0]!.querySelector("script")).toBeNull();
    expect([...document.querySelectorAll("[role=option] mark")].map((mark) => mark.textContent)).toEqual(["Revenue", "revenue"]);
    expect(options[1]).toHaveTextContent("Resolution · May 20, 2026");
    expect(screen.getByRole("link", { name: "See all results" })).toHaveAttribute("href", "/search?q=revenue");
  });

  it("moves through the results with the arrow keys and opens a paper's hit in the reader at its page, its words highlighted", async () => {
    server.use(
      serveSearch(() =>
        searchPage([
          buildSearchResult({ id: 3, kind: "meeting", title: "Board meeting", page: null }),
          buildSearchResult({ id: 5, page: 4, snippet: "<mark>meeting</mark> on <mark>revenues</mark>" }),
        ]),
      ).handler,
    );
    const { user, currentPath } = await openApp();
    const box = await openSearch(user);
    await user.keyboard("meetings revenue -costs");
    const options = await screen.findAllByRole("option");
    expect(box).toHaveAttribute("aria-activedescendant", options[0]!.id);
    expect(options[0]).toHaveAttribute("aria-selected", "true");

    await user.keyboard("{ArrowDown}");
    expect(box).toHaveAttribute("aria-activedescendant", options[1]!.id);
    await user.keyboard("{ArrowDown}");
    expect(box).toHaveAttribute("aria-activedescendant", options[0]!.id);
    await user.keyboard("{ArrowUp}{Enter}");

    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(currentPath()).toBe("/documents/5/read?page=4&highlight=meetings+revenue+meeting+revenues");
  });

  it("never shows an earlier query's late answer over a later one's", async () => {
    let answerFirst!: () => void;
    const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
    const search = serveSearch(async ({ q }) => {
      if (q === "rev") {
        await firstAnswered;
        return searchPage([buildSearchResult({ id: 1, title: "Old answer" })]);
      }
      return searchPage([buildSearchResult({ id: 2, title: "New answer" })]);
    });
    server.use(search.handler);
    const { user, queryClient } = await openApp();
    await openSearch(user);
    await user.keyboard("rev");
    await waitFor(() => expect(search.asked).toEqual([{ q: "rev" }]));
    await user.keyboard("enue");
    expect(await screen.findByRole("option", { name: /New answer/ })).toBeInTheDocument();

    answerFirst();
    // The late answer lands under its own query, and is never shown as this one's.
    await waitFor(() => expect(queryClient.getQueryState(searchKeys.results(1, { q: "rev", scope: undefined }))?.status).toBe("success"));
    expect(screen.getAllByRole("option").map((option) => option.textContent)).toEqual([expect.stringMatching(/^New answer/)]);
  });

  it("says when nothing matched, and shows the server's refusal with a retry", async () => {
    let refuse = true;
    server.use(
      serveSearch(({ q }) => (refuse && q === "x" ? apiError(400, "A search is at most 500 characters") : searchPage([]))).handler,
    );
    const { user } = await openApp();
    await openSearch(user);
    await user.keyboard("x");
    expect(await screen.findByRole("alert")).toHaveTextContent("A search is at most 500 characters");
    refuse = false;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("No results for “x”")).toBeInTheDocument();
  });

  it("searches all the user's boards when asked, names another board's result and switches to that board to open it", async () => {
    let switchedTo: number | null = null;
    const search = serveSearch(() =>
      searchPage([buildSearchResult({ id: 12, kind: "resolution", companyId: 2, companyName: "Beta Ventures", page: null })]),
    );
    server.use(
      search.handler,
      handle(companiesApi.listCompanies, () => [
        { id: 1, name: "Acme Holdings", logoUrl: null, industry: null, role: "founder" },
        { id: 2, name: "Beta Ventures", logoUrl: null, industry: null, role: "member" },
      ]),
      handle(companiesApi.switchActiveCompany, ({ body }) => {
        switchedTo = Number(body.companyId);
        return { ...founder, companyId: switchedTo };
      }),
    );
    const { user, currentPath } = await openApp();
    await openSearch(user);
    await user.click(await screen.findByRole("switch", { name: "All my boards" }));
    await user.click(screen.getByRole("combobox", { name: "Search the board's record" }));
    await user.keyboard("budget");
    const option = await screen.findByRole("option");
    expect(search.asked.at(-1)).toEqual({ q: "budget", scope: "all" });
    expect(option).toHaveTextContent("Resolution · Beta Ventures");

    await user.keyboard("{Enter}");
    await waitFor(() => expect(currentPath()).toBe("/resolutions/12"));
    expect(switchedTo).toBe(2);
  });
});
