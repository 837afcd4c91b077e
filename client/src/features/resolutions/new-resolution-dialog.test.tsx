import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import * as accountApi from "@shared/api/account";
import * as documentsApi from "@shared/api/documents";
import * as resolutionsApi from "@shared/api/resolutions";
import { preferenceDefaults } from "@shared/preferences";
import { DRAFT_STORAGE_PREFIX } from "@/lib/use-form-draft";
import { freezeDateAt } from "@/testing/clock";
import { buildLibraryDocument, buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { runInTimeZone } from "@/testing/time-zone";
import { findToast, findToastBehindModal } from "@/testing/toasts";
import { buildResolution, me, now, serve } from "@/testing/resolution-fixtures";

// Local dates are visible away from UTC: the deadline is the end of the chosen day in New York.
runInTimeZone("America/New_York");

freezeDateAt(now);

const budget = buildLibraryDocument({ id: 40, name: "Budget.pdf", category: "Financial", companyId: 3 });

describe("New Resolution", () => {
  it("asks for the required fields, refuses a deadline before today, and sends the end of the chosen local day", async () => {
    serve([]);
    server.use(handle(documentsApi.listLibrary, () => [budget]));
    const sent: Record<string, unknown>[] = [];
    server.use(
      handle(resolutionsApi.createResolution, ({ body }) => {
        sent.push(body);
        return buildResolution({ id: 50, title: body.title });
      }),
    );
    const { user } = renderApp({ path: "/resolutions", signedInAs: me });
    await user.click(await screen.findByRole("button", { name: "New Resolution" }));
    const dialog = await screen.findByRole("dialog", { name: "New Resolution" });
    await user.click(within(dialog).getByRole("button", { name: "Create Resolution" }));
    const missing = await findToastBehindModal("Missing information");
    expect(within(missing).getByText("Please fill in all the required fields.")).toBeInTheDocument();
    expect(missing).toHaveClass("destructive");
    expect(sent).toEqual([]);

    await user.type(within(dialog).getByRole("textbox", { name: "Title" }), "Approve the budget");
    await user.type(within(dialog).getByRole("textbox", { name: "Description" }), "FY27 capex");
    await user.click(within(dialog).getByRole("combobox", { name: "Type" }));
    await user.click(await screen.findByRole("option", { name: "Special" }));
    expect(within(dialog).getByText("Passes with at least 75% yes among yes and no votes.")).toBeInTheDocument();
    // 15:00 UTC is 11:00 on June 1 in New York: May 31 is before today.
    const deadline = within(dialog).getByLabelText("Deadline");
    fireEvent.change(deadline, { target: { value: "2026-05-31" } });
    await user.click(within(dialog).getByRole("button", { name: "Create Resolution" }));
    expect(await within(dialog).findByText("The deadline cannot be before today")).toBeInTheDocument();
    expect(sent).toEqual([]);

    fireEvent.change(deadline, { target: { value: "2026-06-01" } });
    await user.click(await within(dialog).findByRole("checkbox", { name: "Budget.pdf" }));
    await user.click(within(dialog).getByRole("button", { name: "Create Resolution" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    // The end of June 1 in New York (UTC-4).
    expect(sent[0]).toEqual({
      title: "Approve the budget",
      description: "FY27 capex",
      procedure: "vote",
      type: "Special",
      deadline: "2026-06-02T03:59:59.999Z",
      documentIds: [40],
      status: "pending",
    });
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "New Resolution" })).not.toBeInTheDocument());
  });

  it("gives focus back to the New Resolution button once Escape closes the dialog", async () => {
    serve([]);
    const { user } = renderApp({ path: "/resolutions", signedInAs: me });
    // The first render loads the page's code.
    const opener = await screen.findByRole("button", { name: "New Resolution" }, { timeout: 5000 });
    await user.click(opener);
    await screen.findByRole("dialog", { name: "New Resolution" });
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "New Resolution" })).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it("says so when creation fails", async () => {
    serve([]);
    server.use(handle(resolutionsApi.createResolution, () => apiError(500, "Internal error")));
    const { user } = renderApp({ path: "/resolutions", signedInAs: me });
    await user.click(await screen.findByRole("button", { name: "New Resolution" }));
    const dialog = await screen.findByRole("dialog", { name: "New Resolution" });
    await user.type(within(dialog).getByRole("textbox", { name: "Title" }), "T");
    await user.type(within(dialog).getByRole("textbox", { name: "Description" }), "D");
    await user.click(within(dialog).getByRole("combobox", { name: "Type" }));
    await user.click(await screen.findByRole("option", { name: "Ordinary" }));
    fireEvent.change(within(dialog).getByLabelText("Deadline"), { target: { value: "2026-06-10" } });
    await user.click(within(dialog).getByRole("button", { name: "Create Resolution" }));
    const toast = await findToastBehindModal("Error");
    expect(within(toast).getByText("Failed to create resolution. Please try again.")).toBeInTheDocument();
    expect(toast).toHaveClass("destructive");
  });

  describe("Auto-save Drafts", () => {
    const storedDrafts = () => Object.keys(window.localStorage).filter((key) => key.startsWith(DRAFT_STORAGE_PREFIX));

    async function openDialog() {
      serve([]);
      server.use(handle(documentsApi.listLibrary, () => [budget]));
      const view = renderApp({ path: "/resolutions", signedInAs: me });
      await view.user.click(await screen.findByRole("button", { name: "New Resolution" }));
      const dialog = await screen.findByRole("dialog", { name: "New Resolution" });
      return { ...view, dialog };
    }

    async function fillAndClose(dialog: HTMLElement, user: Awaited<ReturnType<typeof openDialog>>["user"]) {
      await user.type(within(dialog).getByRole("textbox", { name: "Title" }), "Approve the budget");
      await user.type(within(dialog).getByRole("textbox", { name: "Description" }), "FY27 capex");
      await user.click(within(dialog).getByRole("combobox", { name: "Type" }));
      await user.click(await screen.findByRole("option", { name: "Special" }));
      fireEvent.change(within(dialog).getByLabelText("Deadline"), { target: { value: "2026-06-10" } });
      await user.click(await within(dialog).findByRole("checkbox", { name: "Budget.pdf" }));
      await user.keyboard("{Escape}");
      await waitFor(() => expect(screen.queryByRole("dialog", { name: "New Resolution" })).not.toBeInTheDocument());
    }

    async function reopen(user: Awaited<ReturnType<typeof openDialog>>["user"]) {
      await user.click(screen.getByRole("button", { name: "New Resolution" }));
      return screen.findByRole("dialog", { name: "New Resolution" });
    }

    it("keeps an unsent resolution and offers it back on the next opening, every field with it", async () => {
      const { dialog, user } = await openDialog();
      expect(within(dialog).queryByText(/unsent draft/)).not.toBeInTheDocument();
      await fillAndClose(dialog, user);
      expect(storedDrafts()).toEqual([`${DRAFT_STORAGE_PREFIX}resolution:new:7:3`]);

      const again = await reopen(user);
      expect(within(again).getByRole("status")).toHaveTextContent("You have an unsent draft from less than a minute ago.");
      expect(within(again).getByRole("textbox", { name: "Title" })).toHaveValue("");
      await user.click(within(again).getByRole("button", { name: "Restore draft" }));
      expect(within(again).getByRole("textbox", { name: "Title" })).toHaveValue("Approve the budget");
      expect(within(again).getByRole("textbox", { name: "Description" })).toHaveValue("FY27 capex");
      expect(within(again).getByRole("combobox", { name: "Type" })).toHaveTextContent("Special");
      expect(within(again).getByLabelText("Deadline")).toHaveValue("2026-06-10");
      expect(await within(again).findByRole("checkbox", { name: "Budget.pdf" })).toBeChecked();
      expect(within(again).queryByText(/unsent draft/)).not.toBeInTheDocument();
    });

    it("forgets a discarded draft", async () => {
      const { dialog, user } = await openDialog();
      await fillAndClose(dialog, user);
      const again = await reopen(user);
      await user.click(within(again).getByRole("button", { name: "Discard" }));
      expect(within(again).queryByText(/unsent draft/)).not.toBeInTheDocument();
      expect(storedDrafts()).toEqual([]);
    });

    it("forgets the draft once the resolution is created", async () => {
      server.use(handle(resolutionsApi.createResolution, () => buildResolution({ id: 51, title: "Approve the budget" })));
      const { dialog, user } = await openDialog();
      await user.type(within(dialog).getByRole("textbox", { name: "Title" }), "Approve the budget");
      await user.type(within(dialog).getByRole("textbox", { name: "Description" }), "FY27 capex");
      await user.click(within(dialog).getByRole("combobox", { name: "Type" }));
      await user.click(await screen.findByRole("option", { name: "Ordinary" }));
      fireEvent.change(within(dialog).getByLabelText("Deadline"), { target: { value: "2026-06-10" } });
      await user.click(within(dialog).getByRole("button", { name: "Create Resolution" }));
      await findToast("Resolution created");
      await waitFor(() => expect(screen.queryByRole("dialog", { name: "New Resolution" })).not.toBeInTheDocument());
      expect(storedDrafts()).toEqual([]);
      const again = await reopen(user);
      expect(within(again).queryByText(/unsent draft/)).not.toBeInTheDocument();
    });

    it("keeps nothing when the user has switched Auto-save Drafts off", async () => {
      server.use(handle(accountApi.getPreferences, () => ({ ...preferenceDefaults, autoSaveDrafts: false }), { params: { id: 7 } }));
      const { dialog, user } = await openDialog();
      await fillAndClose(dialog, user);
      expect(storedDrafts()).toEqual([]);
      const again = await reopen(user);
      expect(within(again).queryByText(/unsent draft/)).not.toBeInTheDocument();
    });

    it("puts back no type the select does not offer and no document id that is not one (a draft edited by hand)", async () => {
      window.localStorage.setItem(
        `${DRAFT_STORAGE_PREFIX}resolution:new:7:3`,
        JSON.stringify({
          savedAt: now.toISOString(),
          values: { title: "Edited", description: "", type: "Bogus", deadline: "", documentIds: ["40", -1] },
        }),
      );
      const { dialog, user } = await openDialog();
      await user.click(within(dialog).getByRole("button", { name: "Restore draft" }));
      expect(within(dialog).getByRole("textbox", { name: "Title" })).toHaveValue("Edited");
      expect(within(dialog).getByRole("combobox", { name: "Type" })).toHaveTextContent("Select a type");
      expect(await within(dialog).findByRole("checkbox", { name: "Budget.pdf" })).not.toBeChecked();
    });
  });

  it("is not offered to observers", async () => {
    serve([buildResolution({ id: 60 })]);
    renderApp({ path: "/resolutions", signedInAs: buildUser({ id: 8, companyId: 3, role: "observer" }) });
    await screen.findByText("Resolution 60");
    expect(screen.queryByRole("button", { name: "New Resolution" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Cast Your Vote" })).not.toBeInTheDocument();
  });
});
