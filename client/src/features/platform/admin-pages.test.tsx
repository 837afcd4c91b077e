import { screen, waitFor, within } from "@testing-library/react";
import { HttpResponse } from "msw";
import * as platformApi from "@shared/api/platform";
import type { User } from "@shared/auth";
import { apiUrl } from "@/lib/api-client";
import { authKeys } from "@/lib/auth/auth-keys";
import { buildUser } from "@/testing/factories";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { apiError, handle, malformed } from "@/testing/handle";
import { findToast } from "@/testing/toasts";
import { buildService, fakePlatformApi } from "@/testing/platform-api";

function open(path: "/admin-settings" | "/admin-portal", signedInAs: User, isPlatformAdmin: boolean, api = fakePlatformApi()) {
  server.use(...api.handlers);
  return { ...renderApp({ path, signedInAs, isPlatformAdmin }), api };
}

const rowOf = (name: string) => screen.getByRole("rowheader", { name }).closest("tr") as HTMLElement;

describe("Admin Settings", () => {
  it("says so when the services cannot be loaded", async () => {
    open("/admin-settings", buildUser({ role: "member" }), true);
    server.use(handle(platformApi.listServices, () => apiError(500, "Boom")));
    expect(await screen.findByRole("alert")).toHaveTextContent('The services could not be loaded: 500: {"message":"Boom"}');
  });

  it("shows the Access Denied card to a user the server does not confirm as platform admin, and loads no service", async () => {
    const { api, queryClient } = open("/admin-settings", buildUser({ role: "founder", isPlatformAdmin: true }), false);
    expect(await screen.findByRole("heading", { level: 1, name: "Access Denied" })).toBeInTheDocument();
    expect(screen.getByText("You don't have permission to access the admin settings.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Dashboard" })).toHaveAttribute("href", "/");
    expect(queryClient.getQueryData(authKeys.platformAdmin())).toBe(false);
    expect(api.requests).toEqual([]);
  });

  it("shows the tabs and the services table, each key as its first 8 characters and an ellipsis", async () => {
    const api = fakePlatformApi([
      buildService({ serviceName: "OpenAI", serviceKey: "sk-proj-…", serviceUrl: "https://api.openai.com/v1" }),
      buildService({ serviceName: "SendGrid", serviceKey: "SG.abcde…", isEnabled: false }),
    ]);
    open("/admin-settings", buildUser({ role: "member" }), true, api);
    expect(await screen.findByRole("heading", { level: 1, name: "Admin Settings" })).toBeInTheDocument();
    expect(screen.getAllByRole("tab").map((tab) => tab.textContent)).toEqual([
      "Platform Settings",
      "User Management",
      "Company Management",
    ]);

    const table = await screen.findByRole("table", { name: "Platform services" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((cell) => cell.textContent),
    ).toEqual(["Service", "Key", "URL", "Status", "Actions"]);
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(3));
    const openai = rowOf("OpenAI");
    expect(within(openai).getByText("sk-proj-…")).toBeInTheDocument();
    expect(within(openai).getByText("https://api.openai.com/v1")).toBeInTheDocument();
    expect(within(openai).getByText("Enabled")).toBeInTheDocument();
    expect(within(openai).getByRole("button", { name: "Edit OpenAI" })).toBeInTheDocument();
    expect(within(openai).getByRole("button", { name: "Delete OpenAI" })).toBeInTheDocument();
    expect(within(rowOf("SendGrid")).getByText("Disabled")).toBeInTheDocument();
    expect(within(rowOf("SendGrid")).getByText("SG.abcde…")).toBeInTheDocument();
  });

  it("offers the five service types, the AI service first and chosen by default", async () => {
    const { user } = open("/admin-settings", buildUser(), true);
    await user.click(await screen.findByRole("button", { name: "Add Service" }));
    const dialog = await screen.findByRole("dialog", { name: "Add Service" });
    const type = within(dialog).getByRole("combobox", { name: "Service Type" });
    expect(type).toHaveTextContent("AI Service (OpenAI)");
    await user.click(type);
    expect((await screen.findAllByRole("option")).map((option) => option.textContent)).toEqual([
      "AI Service (OpenAI)",
      "Email Service (SendGrid)",
      "SMS Messaging (Twilio)",
      "Cloud Storage",
      "Custom Service",
    ]);
  });

  it("gives focus back to the button that opened a dialog once Escape closes it", async () => {
    const { user } = open("/admin-settings", buildUser(), true, fakePlatformApi([buildService({ serviceName: "Storage" })]));
    // The first render loads the page's code.
    const add = await screen.findByRole("button", { name: "Add Service" }, { timeout: 5000 });
    await user.click(add);
    await screen.findByRole("dialog", { name: "Add Service" });
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Add Service" })).not.toBeInTheDocument());
    await waitFor(() => expect(add).toHaveFocus());

    const remove = await screen.findByRole("button", { name: "Delete Storage" });
    await user.click(remove);
    await screen.findByRole("alertdialog", { name: "Are you sure you want to delete this service?" });
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    await waitFor(() => expect(remove).toHaveFocus());
  });

  it("confirms before deleting, then deletes, toasts and refreshes the table", async () => {
    const service = buildService({ serviceName: "Storage", serviceKey: "AKIAIOSF…" });
    const { user, api } = open("/admin-settings", buildUser(), true, fakePlatformApi([service]));
    await user.click(await screen.findByRole("button", { name: "Delete Storage" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Are you sure you want to delete this service?" });
    expect(api.writes()).toEqual([]);
    await user.click(within(confirm).getByRole("button", { name: "Delete" }));

    expect(within(await findToast("Service removed")).getByText("Storage has been removed successfully.")).toBeInTheDocument();
    expect(api.writes()).toEqual([
      { method: "DELETE", path: apiUrl(platformApi.deleteService, { params: { id: service.id } }), body: undefined },
    ]);
    expect(await screen.findByText("No services configured yet.")).toBeInTheDocument();
  });

  it("toasts the server's message when a save fails, and the admin fallback when it has none", async () => {
    const { user } = open("/admin-settings", buildUser(), true, fakePlatformApi([buildService({ serviceName: "OpenAI" })]));
    await user.click(await screen.findByRole("button", { name: "Add Service" }));
    const dialog = await screen.findByRole("dialog", { name: "Add Service" });
    await user.type(within(dialog).getByLabelText("Service Key"), "sk-another-key-123");
    await user.click(within(dialog).getByRole("button", { name: "Add Service" }));
    expect(await screen.findByText('A service named "OpenAI" already exists', { selector: "li *" })).toBeInTheDocument();

    server.use(handle(platformApi.createService, () => malformed(new HttpResponse(null, { status: 502 }))));
    await user.click(within(dialog).getByRole("button", { name: "Add Service" }));
    expect(screen.getByRole("dialog", { name: "Add Service" })).toBeInTheDocument();
    expect(await screen.findByText("There was an error processing your request.", { selector: "li *" })).toBeInTheDocument();
  });
});

describe("Admin Portal", () => {
  it("shows a member who is not a platform admin the Access Denied card", async () => {
    const { api } = open("/admin-portal", buildUser({ role: "member" }), false);
    expect(await screen.findByRole("heading", { level: 1, name: "Access Denied" })).toBeInTheDocument();
    expect(screen.getByText("You don't have permission to access the admin portal.")).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it("opens for a founder who is not a platform admin: the tabs and a line about who manages services, never their data", async () => {
    const { api, user, queryClient } = open("/admin-portal", buildUser({ role: "founder" }), false);
    expect(await screen.findByRole("heading", { level: 1, name: "Admin Portal" })).toBeInTheDocument();
    expect(screen.getAllByRole("tab").map((tab) => tab.textContent)).toEqual(["Platform Settings", "Company Settings", "User Management"]);
    expect(await screen.findByText(/are managed by platform administrators/)).toBeInTheDocument();
    await waitFor(() => expect(queryClient.getQueryState(authKeys.platformAdmin())?.status).toBe("success"));
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Add Service" })).not.toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Company Settings" }));
    const panel = await screen.findByRole("tabpanel", { name: "Company Settings" });
    expect(within(panel).getByRole("link", { name: "Company Settings" })).toHaveAttribute("href", "/company-settings");
    await user.click(screen.getByRole("tab", { name: "User Management" }));
    expect(await screen.findByText("User management is coming soon.")).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it("lets a platform admin manage services with a free-text name, loading them only while the tab is open", async () => {
    const api = fakePlatformApi([buildService({ serviceName: "OpenAI" })]);
    const { user } = open("/admin-portal", buildUser({ role: "admin" }), true, api);
    expect(await screen.findByRole("rowheader", { name: "OpenAI" })).toBeInTheDocument();
    expect(api.listLoads()).toBe(1);
    await user.click(screen.getByRole("tab", { name: "User Management" }));
    expect(screen.queryByRole("table")).not.toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Platform Settings" }));
    await user.click(await screen.findByRole("button", { name: "Add Service" }));
    const dialog = await screen.findByRole("dialog", { name: "Add Service" });
    await user.click(within(dialog).getByRole("button", { name: "Add Service" }));
    expect(await within(dialog).findByText("Service name is required")).toBeInTheDocument();
    expect(within(dialog).getByText("Service key is required")).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText("Service Name"), "Acme CRM");
    await user.type(within(dialog).getByLabelText("Service Key"), "crm-key-1234567890");
    await user.click(within(dialog).getByRole("button", { name: "Add Service" }));
    expect(within(await findToast("Service added")).getByText("Acme CRM has been added successfully.")).toBeInTheDocument();
    expect(await screen.findByRole("rowheader", { name: "Acme CRM" })).toBeInTheDocument();
    expect(within(rowOf("Acme CRM")).getByText("crm-key-…")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Edit Acme CRM" }));
    const edit = await screen.findByRole("dialog", { name: "Edit Service" });
    expect(within(edit).getByLabelText("Service Name")).toHaveValue("Acme CRM");
    await user.click(within(edit).getByRole("button", { name: "Save Changes" }));
    expect(within(await findToast("Service updated")).getByText("Acme CRM has been updated successfully.")).toBeInTheDocument();
  });
});
