import { screen, within } from "@testing-library/react";
import * as meetingRecordApi from "@shared/api/meeting-record";
import type { ActionItem } from "@shared/meeting-record";
import { setAuthToken } from "@/lib/auth-token";
import { freezeDateAt } from "@/testing/clock";
import { buildUser } from "@/testing/factories";
import { handle } from "@/testing/handle";
import { signedInHandlers } from "@/testing/handlers";
import { renderApp, renderWithProviders, TEST_TOKEN } from "@/testing/render";
import { server } from "@/testing/server";
import { MyActionItemsPanel } from "@/features/meeting-record/components/my-action-items-panel";

const me = buildUser({ id: 7, companyId: 3 });

// "Today" is 10 June wherever the test runs.
freezeDateAt(new Date(2026, 5, 10, 12, 0));

const item = (fields: Partial<ActionItem> & Pick<ActionItem, "id" | "title" | "dueDate">): ActionItem => ({
  meetingId: 40,
  meetingTitle: "May board",
  ownerId: me.id,
  ownerName: "Test User",
  status: "open",
  ...fields,
});

/** Answers the caller's open items, recording the queries asked. */
function serveMine(items: ActionItem[]): URLSearchParams[] {
  const asked: URLSearchParams[] = [];
  server.use(
    handle(
      meetingRecordApi.companyActionItems,
      ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return items;
      },
      { params: { companyId: 3 } },
    ),
  );
  return asked;
}

function renderPanel() {
  setAuthToken(TEST_TOKEN);
  server.use(...signedInHandlers(me));
  return renderWithProviders(<MyActionItemsPanel />);
}

describe("My action items", () => {
  it("lists the caller's open items, the overdue ones first and marked, each linking to its meeting", async () => {
    const asked = serveMine([
      item({ id: 1, title: "Send the accounts", dueDate: "2026-06-09" }),
      item({ id: 2, title: "Renew the lease", dueDate: "2026-06-10", meetingId: 41, meetingTitle: "June board" }),
    ]);
    renderPanel();
    const panel = await screen.findByRole("region", { name: "My action items" });
    const links = await within(panel).findAllByRole("link");
    expect(links.map((link) => link.getAttribute("href"))).toEqual(["/meetings/40", "/meetings/41"]);
    expect(links[0]).toHaveTextContent("Send the accounts");
    expect(links[0]).toHaveTextContent("From May board");
    expect(links[0]).toHaveTextContent("Due June 9, 2026");
    expect(within(links[0]!).getByText("Overdue")).toBeInTheDocument();
    // Due today is not overdue yet.
    expect(within(links[1]!).queryByText("Overdue")).not.toBeInTheDocument();
    expect(asked.map((query) => Object.fromEntries(query))).toEqual([{ owner: "me", status: "open" }]);
  });

  it("says when there is nothing open", async () => {
    serveMine([]);
    renderPanel();
    const panel = await screen.findByRole("region", { name: "My action items" });
    expect(await within(panel).findByText("You have no open action items.")).toBeInTheDocument();
  });

  it("is on the dashboard", async () => {
    serveMine([item({ id: 1, title: "Send the accounts", dueDate: "2026-06-20" })]);
    renderApp({ path: "/dashboard", signedInAs: me });
    const panel = await screen.findByRole("region", { name: "My action items" });
    expect(await within(panel).findByRole("link", { name: /Send the accounts/ })).toBeInTheDocument();
  });
});
