import { screen, waitFor, within } from "@testing-library/react";
import * as complianceApi from "@shared/api/compliance";
import { buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { server } from "@/testing/server";
import { feedUrl, renderSettings, type SettingsView } from "@/testing/settings-fixtures";
import { findToast } from "@/testing/toasts";

describe("Calendar feed", () => {
  async function openFeed(user: SettingsView["user"]) {
    await user.click(await screen.findByRole("tab", { name: "Notifications" }));
    const card = (await screen.findByRole("heading", { level: 2, name: "Calendar feed" })).closest<HTMLElement>("[data-slot=card]");
    if (!card) throw new Error("the Calendar feed heading is not in a card");
    return card;
  }

  it("shows the active company's address in a read-only field and copies it", async () => {
    const { user } = renderSettings();
    const card = await openFeed(user);
    const field = await within(card).findByLabelText("Calendar feed address");
    expect(field).toHaveValue(feedUrl(7, 1, "first-key"));
    expect(field).toHaveAttribute("readonly");
    await user.click(within(card).getByRole("button", { name: "Copy link" }));
    await findToast("Link copied");
    expect(await navigator.clipboard.readText()).toBe(feedUrl(7, 1, "first-key"));
  });

  it("selects the address when there is no clipboard to copy to", async () => {
    const { user } = renderSettings();
    const card = await openFeed(user);
    const field = await within(card).findByLabelText<HTMLInputElement>("Calendar feed address");
    const clipboard = Object.getOwnPropertyDescriptor(window.navigator, "clipboard");
    Object.defineProperty(window.navigator, "clipboard", { value: undefined, configurable: true });
    try {
      await user.click(within(card).getByRole("button", { name: "Copy link" }));
      await findToast("Link selected");
      expect(field).toHaveFocus();
      expect(field.value.slice(field.selectionStart ?? 0, field.selectionEnd ?? 0)).toBe(field.value);
    } finally {
      if (clipboard) Object.defineProperty(window.navigator, "clipboard", clipboard);
    }
  });

  it("resets the link only after confirmation, and shows the new address", async () => {
    const { user } = renderSettings();
    let rotated = 0;
    server.use(
      handle(
        complianceApi.rotateCalendarFeed,
        ({ query }) => {
          rotated += 1;
          const companyId = query.companyId ?? 0;
          return { url: feedUrl(7, companyId, "second-key"), companyId };
        },
        { params: { id: 7 } },
      ),
    );
    const card = await openFeed(user);
    await within(card).findByDisplayValue(feedUrl(7, 1, "first-key"));

    await user.click(within(card).getByRole("button", { name: "Reset link" }));
    let dialog = await screen.findByRole("alertdialog", { name: "Reset the calendar link?" });
    expect(dialog).toHaveAccessibleDescription(expect.stringContaining("Calendars subscribed with the old link stop updating"));
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(rotated).toBe(0);

    await user.click(within(card).getByRole("button", { name: "Reset link" }));
    dialog = await screen.findByRole("alertdialog", { name: "Reset the calendar link?" });
    await user.click(within(dialog).getByRole("button", { name: "Reset link" }));
    await findToast("Calendar link reset");
    expect(rotated).toBe(1);
    expect(within(card).getByLabelText("Calendar feed address")).toHaveValue(feedUrl(7, 1, "second-key"));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
  });

  it("says so when the address cannot be loaded", async () => {
    const { user } = renderSettings();
    server.use(handle(complianceApi.getCalendarFeed, () => apiError(500, "Internal error"), { params: { id: 7 } }));
    const card = await openFeed(user);
    expect(await within(card).findByRole("alert")).toHaveTextContent("Your calendar link could not be loaded.");
    expect(within(card).queryByRole("button", { name: "Copy link" })).not.toBeInTheDocument();
  });

  it("without an active company, says there is no feed yet and asks the server nothing", async () => {
    const { user } = renderSettings({ user: buildUser({ id: 7, companyId: null }) });
    let asked = false;
    server.use(
      handle(
        complianceApi.getCalendarFeed,
        () => {
          asked = true;
          return apiError(403, "Forbidden");
        },
        { params: { id: 7 } },
      ),
    );
    const card = await openFeed(user);
    expect(within(card).getByText(/Join or create a company/)).toBeInTheDocument();
    expect(within(card).queryByLabelText("Calendar feed address")).not.toBeInTheDocument();
    expect(asked).toBe(false);
  });
});
