import { screen, waitFor, within } from "@testing-library/react";
import { agendaInputSchema } from "@shared/agenda";
import * as meetingsApi from "@shared/api/meetings";
import { apiError, handle, type OtherAnswer } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";
import {
  buildAgendaItem,
  buildLibraryDocument,
  buildMember,
  buildPageMeeting,
  buildResolutionRow,
  captureBodies,
  pageUser,
  serveMeetingPage,
  runOnMeetingPageClock,
} from "@/testing/meeting-fixtures";

runOnMeetingPageClock();

const founder = pageUser(7, "founder");
const member = pageUser(9, "member");
const meeting = buildPageMeeting({ id: 60, participants: ["7", "8"] });
const members = [
  buildMember({ id: 7, firstName: "Ada", lastName: "Lovelace", role: "founder" }),
  buildMember({ id: 8, firstName: "Grace", lastName: "Hopper" }),
];
const budget = buildLibraryDocument({ id: 70, name: "Budget 2026.pdf", companyId: 3 });
const minutesPaper = buildLibraryDocument({ id: 71, name: "Minutes May.pdf", companyId: 3 });
const approve = buildResolutionRow({ id: 80, title: "Approve the budget" });
const decided = buildResolutionRow({ id: 81, title: "Old decision", status: "approved" });

const agendaRegion = () => screen.findByRole("region", { name: "Agenda" });

describe("the agenda on /meetings/:id", () => {
  it("numbers the items with their start times in the viewer's zone, lengths, presenters, descriptions, papers and resolutions", async () => {
    serveMeetingPage({
      meeting,
      members,
      library: [budget],
      resolutions: [approve],
      items: [
        buildAgendaItem({ id: 1, title: "Call to order", durationMinutes: 5, startsAt: "2026-06-10T14:00:00.000Z" }),
        buildAgendaItem({
          id: 2,
          title: "Budget review",
          durationMinutes: 80,
          presenterId: 8,
          description: "The CFO walks through the numbers.",
          documentIds: [70],
          resolutionIds: [80],
          startsAt: "2026-06-10T14:05:00.000Z",
        }),
      ],
    });
    const { user, currentPath } = renderApp({ path: "/meetings/60", signedInAs: member });
    const region = await agendaRegion();
    const items = await within(region)
      .findAllByRole("listitem")
      .then((all) => all.filter((li) => li.querySelector("h3")));
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByRole("heading", { level: 3 })).toHaveTextContent("1. Call to order");
    expect(within(items[0]!).getByText("10:00 AM")).toBeInTheDocument();
    expect(within(items[0]!).getByText("5 min")).toBeInTheDocument();
    expect(within(items[1]!).getByRole("heading", { level: 3 })).toHaveTextContent("2. Budget review");
    expect(within(items[1]!).getByText("10:05 AM")).toBeInTheDocument();
    expect(within(items[1]!).getByText("1 h 20 min")).toBeInTheDocument();
    expect(await within(items[1]!).findByText("Grace Hopper")).toBeInTheDocument();
    expect(within(items[1]!).getByText("The CFO walks through the numbers.")).toBeInTheDocument();
    expect(within(region).getByText("2 items · 1 h 25 min")).toBeInTheDocument();
    expect(within(items[1]!).getByRole("link", { name: "Approve the budget" })).toHaveAttribute("href", "/resolutions/80");

    // The participants, by name.
    const participants = screen.getByRole("region", { name: "Participants" });
    expect(within(participants).getByText("Ada Lovelace")).toBeInTheDocument();
    expect(within(participants).getByText("Grace Hopper")).toBeInTheDocument();

    // A PDF paper opens in the reader.
    await user.click(within(items[1]!).getByRole("button", { name: "Open paper Budget 2026.pdf" }));
    await waitFor(() => expect(currentPath()).toBe("/documents/70/read"));

    // A member who did not schedule it cannot edit it.
    expect(screen.queryByRole("button", { name: "Edit agenda" })).not.toBeInTheDocument();
  });

  it("shows a skeleton while loading, and an error with a retry", async () => {
    let calls = 0;
    serveMeetingPage({ meeting, members });
    server.use(
      handle(
        meetingsApi.getAgenda,
        () => {
          calls += 1;
          return calls === 1 ? apiError(500, "Down") : { items: [buildAgendaItem({ title: "Back again" })] };
        },
        { params: { id: 60 } },
      ),
    );
    const { user } = renderApp({ path: "/meetings/60", signedInAs: member });
    expect(await screen.findByRole("status", { name: "Loading agenda" })).toBeInTheDocument();
    const region = await agendaRegion();
    expect(await within(region).findByText("The agenda could not be loaded.")).toBeInTheDocument();
    // Queries are not retried: the failure shows after one request.
    expect(calls).toBe(1);
    await user.click(within(region).getByRole("button", { name: "Try again" }));
    expect(await within(region).findByText("Back again")).toBeInTheDocument();
  });

  it("says when there is no item yet, offering 'Add item' to those who may edit only", async () => {
    serveMeetingPage({ meeting: { ...meeting, uploadedBy: 9 }, members });
    const { user, unmount } = renderApp({ path: "/meetings/60", signedInAs: pageUser(10, "member") });
    const region = await agendaRegion();
    expect(await within(region).findByText("No agenda items yet")).toBeInTheDocument();
    expect(within(region).queryByRole("button", { name: "Add item" })).not.toBeInTheDocument();
    unmount();

    // The member who scheduled it may.
    renderApp({ path: "/meetings/60", signedInAs: member });
    const own = await agendaRegion();
    await user.click(await within(own).findByRole("button", { name: "Add item" }));
    expect(await within(own).findByRole("textbox", { name: "Item 1 Title" })).toHaveFocus();
  });
});

describe("editing the agenda", () => {
  /** Answers the PUT with `answer`, or by saving what was sent. */
  function capturePut(answer?: () => OtherAnswer) {
    return captureBodies(
      meetingsApi.replaceAgenda,
      answer ??
        ((body) => ({
          items: agendaInputSchema.parse(body).items.map((item, index) =>
            buildAgendaItem({
              ...item,
              id: item.id ?? 500 + index,
              presenterId: item.presenterId ?? null,
              description: item.description ?? "",
            }),
          ),
        })),
      { params: { id: 60 } },
    );
  }

  it("adds an item with a presenter and a paper, moves it up with its Move up button, and saves the whole list in order", async () => {
    serveMeetingPage({
      meeting,
      members,
      library: [budget, minutesPaper],
      resolutions: [approve, decided],
      items: [
        buildAgendaItem({ id: 1, title: "Call to order", durationMinutes: 5 }),
        buildAgendaItem({ id: 2, title: "Close", durationMinutes: 5, startsAt: "2026-06-10T14:05:00.000Z" }),
      ],
    });
    const bodies = capturePut();
    const { user } = renderApp({ path: "/meetings/60", signedInAs: founder });
    const region = await agendaRegion();
    await user.click(await within(region).findByRole("button", { name: "Edit agenda" }));
    await user.click(await within(region).findByRole("button", { name: "Add item" }));

    const rows = () => within(region).getAllByTestId("agenda-item-editor");
    const added = rows()[2]!;
    // Each control is named with its item, the visible label after it.
    expect(within(added).getByRole("heading", { level: 3, name: "Item 3" })).toBeInTheDocument();
    const title = within(added).getByRole("textbox", { name: "Item 3 Title" });
    expect(title).toHaveFocus();
    await user.type(title, "Budget review");
    await user.click(within(added).getByRole("combobox", { name: "Item 3 Presenter" }));
    await user.click(await screen.findByRole("option", { name: "Grace Hopper" }));
    const duration = within(added).getByRole("spinbutton", { name: "Item 3 Duration (min)" });
    await user.clear(duration);
    await user.type(duration, "40");
    await user.type(within(added).getByRole("textbox", { name: "Item 3 Description (optional)" }), "Numbers for Q3");
    await user.click(within(added).getByRole("combobox", { name: "Item 3 Purpose" }));
    await user.click(await screen.findByRole("option", { name: "For decision" }));
    expect(within(rows()[0]!).getByRole("textbox", { name: "Item 1 Title" })).toHaveValue("Call to order");
    await user.click(within(added).getByRole("button", { name: 'Attach papers and resolutions to "Budget review"' }));
    const dialog = await screen.findByRole("dialog", { name: "Attach papers and resolutions" });
    // Pending resolutions only.
    expect(within(dialog).queryByRole("checkbox", { name: "Old decision" })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole("checkbox", { name: "Budget 2026.pdf" }));
    await user.click(within(dialog).getByRole("checkbox", { name: "Approve the budget" }));
    await user.click(within(dialog).getByRole("button", { name: "Attach" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(within(rows()[2]!).getByText("Budget 2026.pdf")).toBeInTheDocument();

    // From the keyboard's buttons: above "Close".
    const moveUp = within(rows()[2]!).getByRole("button", { name: 'Move "Budget review" up' });
    await user.click(moveUp);
    expect(rows().map((row) => (within(row).getByRole("textbox", { name: /Title$/ }) as HTMLInputElement).value)).toEqual([
      "Call to order",
      "Budget review",
      "Close",
    ]);
    expect(within(rows()[1]!).getByRole("button", { name: 'Move "Budget review" up' })).toHaveFocus();
    expect(within(region).getByRole("status")).toHaveTextContent("Moved “Budget review” to position 2 of 3.");

    await user.click(within(region).getByRole("button", { name: "Save agenda" }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      items: [
        {
          id: 1,
          title: "Call to order",
          presenterId: null,
          durationMinutes: 5,
          description: "",
          purpose: "discussion",
          documentIds: [],
          resolutionIds: [],
        },
        {
          title: "Budget review",
          presenterId: 8,
          durationMinutes: 40,
          description: "Numbers for Q3",
          purpose: "decision",
          documentIds: [70],
          resolutionIds: [80],
        },
        {
          id: 2,
          title: "Close",
          presenterId: null,
          durationMinutes: 5,
          description: "",
          purpose: "discussion",
          documentIds: [],
          resolutionIds: [],
        },
      ],
    });
    expect(await findToast("Agenda saved")).toBeInTheDocument();
    // Back to the view, in the saved order.
    const headings = await within(region).findAllByRole("heading", { level: 3 });
    expect(headings.map((heading) => heading.textContent)).toEqual(["1. Call to order", "2. Budget review", "3. Close"]);
  });

  it("shows the server's field errors next to their item, and keeps them with it when it moves", async () => {
    serveMeetingPage({
      meeting,
      members,
      items: [buildAgendaItem({ id: 1, title: "Call to order", presenterId: 8 }), buildAgendaItem({ id: 2, title: "Close" })],
    });
    const bodies = capturePut(() =>
      apiError(400, {
        message: "Invalid agenda",
        errors: [{ path: "items.0.presenterId", message: "The presenter is not a member of this company" }],
      }),
    );
    const { user } = renderApp({ path: "/meetings/60", signedInAs: founder });
    const region = await agendaRegion();
    await user.click(await within(region).findByRole("button", { name: "Edit agenda" }));
    await user.click(within(region).getByRole("button", { name: "Save agenda" }));
    await waitFor(() => expect(bodies).toHaveLength(1));

    const first = within(region).getAllByTestId("agenda-item-editor")[0]!;
    expect(await within(first).findByText("The presenter is not a member of this company")).toBeInTheDocument();
    const presenter = within(first).getByRole("combobox", { name: "Item 1 Presenter" });
    expect(presenter).toHaveAttribute("aria-invalid", "true");
    expect(presenter).toHaveAccessibleDescription("The presenter is not a member of this company");
    expect(await findToast("The agenda was not saved")).toHaveTextContent("Invalid agenda");

    await user.click(within(first).getByRole("button", { name: 'Move "Call to order" down' }));
    const moved = within(region).getAllByTestId("agenda-item-editor")[1]!;
    expect(within(moved).getByText("The presenter is not a member of this company")).toBeInTheDocument();
    // Cancel discards the edit.
    await user.click(within(region).getByRole("button", { name: "Cancel" }));
    const headings = await within(region).findAllByRole("heading", { level: 3 });
    expect(headings.map((heading) => heading.textContent)).toEqual(["1. Call to order", "2. Close"]);
  });

  it("checks the fields before sending: a missing title and a duration out of range", async () => {
    serveMeetingPage({ meeting, members, items: [buildAgendaItem({ id: 1, title: "Call to order" })] });
    const bodies = capturePut();
    const { user } = renderApp({ path: "/meetings/60", signedInAs: founder });
    const region = await agendaRegion();
    await user.click(await within(region).findByRole("button", { name: "Edit agenda" }));
    const row = within(region).getAllByTestId("agenda-item-editor")[0]!;
    const title = within(row).getByRole("textbox", { name: "Item 1 Title" });
    const duration = within(row).getByRole("spinbutton", { name: "Item 1 Duration (min)" });
    await user.clear(title);
    await user.clear(duration);
    await user.type(duration, "481");
    await user.click(within(region).getByRole("button", { name: "Save agenda" }));
    expect(await within(row).findByText("Item title is required")).toBeInTheDocument();
    expect(within(row).getByText("Duration must be a whole number of minutes from 1 to 480")).toBeInTheDocument();
    expect(title).toHaveFocus();
    expect(title).toHaveAccessibleDescription("Item title is required");
    expect(bodies).toEqual([]);
  });
});
