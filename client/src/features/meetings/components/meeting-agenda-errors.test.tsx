import { screen, waitFor, within } from "@testing-library/react";
import { agendaLimits } from "@shared/agenda";
import * as documentsApi from "@shared/api/documents";
import * as meetingsApi from "@shared/api/meetings";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import {
  buildAgendaItem,
  buildLibraryDocument,
  buildPageMeeting,
  captureBodies,
  pageUser,
  serveMeetingPage,
  runOnMeetingPageClock,
} from "@/testing/meeting-fixtures";

runOnMeetingPageClock();

const founder = pageUser(7, "founder");
const meeting = buildPageMeeting({ id: 61 });
const budget = buildLibraryDocument({ id: 70, name: "Budget 2026.pdf", companyId: 3 });
const agendaRegion = () => screen.findByRole("region", { name: "Agenda" });

/** The company's library fails once, then lists `budget`. */
function libraryFailingOnce() {
  let calls = 0;
  server.use(
    handle(
      documentsApi.listLibrary,
      () => {
        calls += 1;
        return calls === 1 ? apiError(500, "Down") : [budget];
      },
      { params: { companyId: 3 } },
    ),
  );
}

describe("the agenda when a list it names things from fails", () => {
  it("says a paper's details could not be loaded, not that it is hidden, and loads them again on 'Try again'", async () => {
    serveMeetingPage({ meeting, items: [buildAgendaItem({ title: "Budget review", documentIds: [70, 71] })] });
    libraryFailingOnce();
    const { user } = renderApp({ path: "/meetings/61", signedInAs: founder });
    const region = await agendaRegion();
    expect(await within(region).findByRole("alert")).toHaveTextContent("Paper details could not be loaded.");
    expect(within(region).getAllByText("Paper details could not be loaded")).toHaveLength(2);
    expect(within(region).queryByText("A paper you cannot open")).not.toBeInTheDocument();

    await user.click(within(region).getByRole("button", { name: "Try again" }));
    expect(await within(region).findByRole("button", { name: "Open paper Budget 2026.pdf" })).toBeInTheDocument();
    // The one the library does not list is not the viewer's to open.
    expect(within(region).getByText("A paper you cannot open")).toBeInTheDocument();
    expect(within(region).queryByRole("alert")).not.toBeInTheDocument();
  });

  it("offers 'Try again' in the attach dialog when the library could not be loaded", async () => {
    serveMeetingPage({ meeting, items: [buildAgendaItem({ title: "Budget review" })] });
    libraryFailingOnce();
    const { user } = renderApp({ path: "/meetings/61", signedInAs: founder });
    const region = await agendaRegion();
    await user.click(await within(region).findByRole("button", { name: "Edit agenda" }));
    await user.click(await within(region).findByRole("button", { name: 'Attach papers and resolutions to "Budget review"' }));
    const dialog = await screen.findByRole("dialog", { name: "Attach papers and resolutions" });
    const retry = await within(dialog).findByRole("button", { name: "Try again" });
    expect(retry).toHaveAccessibleDescription("The library could not be loaded.");
    await user.click(retry);
    expect(await within(dialog).findByRole("checkbox", { name: "Budget 2026.pdf" })).toBeInTheDocument();
  });
});

describe("the agenda editor's limits and item errors", () => {
  it(`says why 'Add item' is disabled at ${agendaLimits.items} items`, async () => {
    const items = Array.from({ length: agendaLimits.items - 1 }, (_, index) => buildAgendaItem({ title: `Point ${index + 1}` }));
    serveMeetingPage({ meeting, items });
    const { user } = renderApp({ path: "/meetings/61", signedInAs: founder });
    const region = await agendaRegion();
    await user.click(await within(region).findByRole("button", { name: "Edit agenda" }));
    const add = await within(region).findByRole("button", { name: "Add item" });
    expect(add).toBeEnabled();
    expect(within(region).queryByText(`An agenda has at most ${agendaLimits.items} items`)).not.toBeInTheDocument();
    await user.click(add);
    expect(add).toBeDisabled();
    expect(add).toHaveAccessibleDescription(`An agenda has at most ${agendaLimits.items} items`);
  }, 30_000);

  it("shows an error about the item itself under its heading, tied to its title, and focuses it", async () => {
    serveMeetingPage({ meeting, items: [buildAgendaItem({ id: 1, title: "Call to order" }), buildAgendaItem({ id: 2, title: "Close" })] });
    const bodies = captureBodies(
      meetingsApi.replaceAgenda,
      () => apiError(400, { message: "Invalid agenda", errors: [{ path: "items.1.id", message: "This item is no longer on the agenda" }] }),
      { params: { id: 61 } },
    );
    const { user } = renderApp({ path: "/meetings/61", signedInAs: founder });
    const region = await agendaRegion();
    await user.click(await within(region).findByRole("button", { name: "Edit agenda" }));
    await user.click(within(region).getByRole("button", { name: "Save agenda" }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    const second = within(region).getAllByTestId("agenda-item-editor")[1]!;
    const message = await within(second).findByText("This item is no longer on the agenda");
    await waitFor(() => expect(message).toHaveFocus());
    expect(within(second).getByRole("textbox", { name: "Item 2 Title" })).toHaveAccessibleDescription(
      "This item is no longer on the agenda",
    );
  });
});
