import { screen, waitFor, within } from "@testing-library/react";
import * as platformApi from "@shared/api/platform";
import type { User } from "@shared/auth";
import { apiUrl } from "@/lib/api-client";
import { buildUser } from "@/testing/factories";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { apiError, everyEndpoint, handle, nextHandler } from "@/testing/handle";
import { findToast } from "@/testing/toasts";
import { buildService, fakePlatformApi } from "@/testing/platform-api";

const admin = buildUser({ role: "member", isPlatformAdmin: true });

/** Other screens (the dashboard a redirect lands on) may load data this file does not care about. */
const otherApis = everyEndpoint(() => apiError(404, "Not found"));

function openPlatformSettings(api = fakePlatformApi(), { signedInAs = admin as User | null, isPlatformAdmin = true } = {}) {
  server.use(...otherApis);
  server.use(...api.handlers);
  return { ...renderApp({ path: "/platform-settings", signedInAs: signedInAs ?? undefined, isPlatformAdmin }), api };
}

const serviceCards = () => screen.getAllByTestId("service-card");

describe("Platform Settings: who gets in", () => {
  it("sends a signed-out visitor to /", async () => {
    const { currentPath } = openPlatformSettings(fakePlatformApi(), { signedInAs: null });
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
    await waitFor(() => expect(currentPath()).toBe("/"));
  });

  it("sends a signed-in user who is not a platform admin to /dashboard, without loading any service", async () => {
    const api = fakePlatformApi([buildService()]);
    const { currentPath } = openPlatformSettings(api, { signedInAs: buildUser({ role: "founder" }), isPlatformAdmin: false });
    await waitFor(() => expect(currentPath()).toBe("/dashboard"));
    expect(await screen.findByRole("heading", { level: 1, name: "Dashboard" })).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it("believes the server's check, not the user object: isPlatformAdmin in the user alone does not open the page", async () => {
    const api = fakePlatformApi();
    const { currentPath } = openPlatformSettings(api, { signedInAs: buildUser({ isPlatformAdmin: true }), isPlatformAdmin: false });
    await waitFor(() => expect(currentPath()).toBe("/dashboard"));
    expect(api.requests).toEqual([]);
  });
});

describe("Platform Settings: the services", () => {
  it("says so when the services cannot be loaded", async () => {
    openPlatformSettings();
    server.use(handle(platformApi.listServices, () => apiError(500, "Boom")));
    expect(await screen.findByRole("alert")).toHaveTextContent('The services could not be loaded: 500: {"message":"Boom"}');
  });

  it("shows a spinner, then each service as a card with its masked key and the fallbacks for what it lacks", async () => {
    const api = fakePlatformApi([
      buildService({
        serviceName: "OpenAI",
        serviceKey: "sk-proj-…",
        description: "Agenda generation",
        serviceUrl: "https://api.openai.com/v1",
      }),
      buildService({ serviceName: "Storage", serviceKey: "AKIAIOSF…", isEnabled: false, updatedAt: "2026-03-15T10:00:00.000Z" }),
    ]);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    openPlatformSettings(api);
    // Holds the list until released (then falls through to the fake API).
    server.use(handle(platformApi.listServices, () => released.then(nextHandler)));
    expect(await screen.findByRole("status", { name: "Loading services" })).toBeInTheDocument();
    release();
    expect(await screen.findByRole("heading", { level: 1, name: "Platform Settings" })).toBeInTheDocument();
    expect(screen.getByText(/for platform administrators only/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Add Service" })).toBeInTheDocument();

    await waitFor(() => expect(serviceCards()).toHaveLength(2));
    const [openai, storage] = serviceCards() as [HTMLElement, HTMLElement];
    expect(within(openai).getByRole("heading", { name: "OpenAI" })).toBeInTheDocument();
    expect(within(openai).getByText("Enabled")).toBeInTheDocument();
    expect(within(openai).getByText("Agenda generation")).toBeInTheDocument();
    expect(within(openai).getByText("https://api.openai.com/v1")).toBeInTheDocument();
    expect(within(openai).getByText("sk-proj-…")).toBeInTheDocument();

    expect(within(storage).getByText("Disabled")).toBeInTheDocument();
    expect(within(storage).getByText("No description provided")).toBeInTheDocument();
    expect(within(storage).getByText("Not specified")).toBeInTheDocument();
    expect(within(storage).getByText("AKIAIOSF…")).toBeInTheDocument();
    expect(within(storage).getByText("March 15, 2026")).toBeInTheDocument();
    expect(within(storage).getByRole("button", { name: "Edit Storage" })).toBeInTheDocument();
    expect(within(storage).getByRole("button", { name: "Remove Storage" })).toBeInTheDocument();
  });

  it("shows the empty state, whose 'Add First Service' opens the add dialog", async () => {
    const { user } = openPlatformSettings();
    expect(await screen.findByRole("heading", { name: "No Services Configured" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Add First Service" }));
    const dialog = await screen.findByRole("dialog", { name: "Add New Service" });
    expect(within(dialog).getByRole("combobox", { name: "Service Type" })).toHaveTextContent("AI Service (OpenAI)");
    expect(within(dialog).getByRole("switch", { name: "Enable Service" })).toBeChecked();
    expect(within(dialog).getByRole("button", { name: "Add Service" })).toBeInTheDocument();
  });

  it("relabels the key and URL fields for the messaging type, the URL becoming a masked Auth Token", async () => {
    const { user } = openPlatformSettings();
    await user.click(await screen.findByRole("button", { name: "Add First Service" }));
    const dialog = await screen.findByRole("dialog", { name: "Add New Service" });
    expect(within(dialog).getByLabelText("API Key")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Service URL")).toHaveAttribute("type", "url");
    expect(within(dialog).queryByLabelText("API Key / SID")).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole("combobox", { name: "Service Type" }));
    await user.click(await screen.findByRole("option", { name: "Email Messaging (Twilio)" }));
    expect(within(dialog).getByLabelText("API Key / SID")).toBeInTheDocument();
    const token = within(dialog).getByLabelText("Auth Token / API Secret");
    expect(token).toHaveAttribute("type", "password");
    expect(within(dialog).queryByLabelText("Service URL")).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole("combobox", { name: "Service Type" }));
    await user.click(await screen.findByRole("option", { name: "Cloud Storage" }));
    expect(within(dialog).getByLabelText("API Key")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Service URL")).toBeInTheDocument();
  });

  it("requires a key with the page's message", async () => {
    const { user, api } = openPlatformSettings();
    await user.click(await screen.findByRole("button", { name: "Add Service" }));
    const dialog = await screen.findByRole("dialog", { name: "Add New Service" });
    await user.click(within(dialog).getByRole("button", { name: "Add Service" }));
    const key = within(dialog).getByLabelText("API Key");
    expect(await within(dialog).findByText("Service key is required.")).toBeInTheDocument();
    expect(key).toHaveAttribute("aria-invalid", "true");
    expect(key).toHaveAccessibleDescription("Service key is required.");
    expect(api.writes()).toEqual([]);
  });

  it("adds a service, toasts it, closes the dialog and shows the new card with the key masked", async () => {
    const { user, api } = openPlatformSettings();
    await user.click(await screen.findByRole("button", { name: "Add First Service" }));
    const dialog = await screen.findByRole("dialog", { name: "Add New Service" });
    await user.click(within(dialog).getByRole("combobox", { name: "Service Type" }));
    await user.click(await screen.findByRole("option", { name: "Email Messaging (Twilio)" }));
    await user.type(within(dialog).getByLabelText("API Key / SID"), "AC1234567890abcdef");
    await user.type(within(dialog).getByLabelText("Auth Token / API Secret"), "token-secret-1");
    await user.type(within(dialog).getByLabelText("Description"), "SMS reminders");
    await user.click(within(dialog).getByRole("button", { name: "Add Service" }));

    const toast = await findToast("Service added");
    expect(within(toast).getByText("Twilio has been added.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(api.writes()).toEqual([
      {
        method: "POST",
        path: apiUrl(platformApi.createService),
        body: {
          serviceName: "Twilio",
          serviceKey: "AC1234567890abcdef",
          serviceUrl: "token-secret-1",
          description: "SMS reminders",
          isEnabled: true,
        },
      },
    ]);
    const card = await screen.findByTestId("service-card");
    expect(within(card).getByText("AC123456…")).toBeInTheDocument();
    expect(within(card).getByText("••••••••")).toBeInTheDocument();
    expect(card).not.toHaveTextContent("token-secret-1");
    expect(card).not.toHaveTextContent("AC1234567890abcdef");
  });

  it("edits a service: the masked key is sent back unchanged (the server keeps the stored one) and the switch disables it", async () => {
    const service = buildService({ serviceName: "OpenAI", serviceKey: "sk-proj-…", description: "Agenda" });
    const { user, api } = openPlatformSettings(fakePlatformApi([service]));
    await user.click(await screen.findByRole("button", { name: "Edit OpenAI" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit Service" });
    expect(within(dialog).getByLabelText("API Key")).toHaveValue("sk-proj-…");
    await user.click(within(dialog).getByRole("switch", { name: "Enable Service" }));
    await user.click(within(dialog).getByRole("button", { name: "Update Service" }));

    expect(within(await findToast("Service updated")).getByText("OpenAI has been updated.")).toBeInTheDocument();
    expect(api.writes()).toEqual([
      {
        method: "PUT",
        path: apiUrl(platformApi.updateService, { params: { id: service.id } }),
        body: { serviceName: "OpenAI", serviceKey: "sk-proj-…", serviceUrl: null, description: "Agenda", isEnabled: false },
      },
    ]);
    const card = await screen.findByTestId("service-card");
    await waitFor(() => expect(within(card).getByText("Disabled")).toBeInTheDocument());
  });

  it("asks for the key again when the address changes, and not before", async () => {
    const newAddressNeedsKey = "A new address needs its key entered again: the stored key is never sent to it.";
    const service = buildService({ serviceName: "OpenAI", serviceKey: "sk-proj-…", serviceUrl: "https://api.example.com/v1" });
    const { user } = openPlatformSettings(fakePlatformApi([service]));
    await user.click(await screen.findByRole("button", { name: "Edit OpenAI" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit Service" });
    expect(within(dialog).queryByText(newAddressNeedsKey)).not.toBeInTheDocument();
    const url = within(dialog).getByLabelText("Service URL");
    await user.clear(url);
    await user.type(url, "https://llm.example.org/v1");
    expect(within(dialog).getByText(newAddressNeedsKey)).toBeInTheDocument();
    const key = within(dialog).getByLabelText("API Key");
    await user.clear(key);
    await user.type(key, "sk-new");
    expect(within(dialog).queryByText(newAddressNeedsKey)).not.toBeInTheDocument();
  });

  it("toasts 'Failed to add service: …' with the server's message and keeps the dialog open", async () => {
    const { user } = openPlatformSettings(fakePlatformApi([buildService({ serviceName: "Custom" })]));
    await user.click(await screen.findByRole("button", { name: "Add Service" }));
    const dialog = await screen.findByRole("dialog", { name: "Add New Service" });
    await user.click(within(dialog).getByRole("combobox", { name: "Service Type" }));
    await user.click(await screen.findByRole("option", { name: "Custom Service" }));
    await user.type(within(dialog).getByLabelText("API Key"), "custom-key-123456");
    await user.click(within(dialog).getByRole("button", { name: "Add Service" }));

    // The open modal hides the rest of the page from the accessibility tree, so the toast is found by its text.
    const text = await screen.findByText('Failed to add service: A service named "Custom" already exists', { selector: "li *" });
    expect(text.closest("li")).toHaveClass("destructive");
    expect(screen.getByRole("dialog", { name: "Add New Service" })).toBeInTheDocument();
  });

  it("asks before removing: Cancel deletes nothing, confirming deletes, toasts and refreshes the list", async () => {
    const service = buildService({ serviceName: "Storage" });
    const { user, api } = openPlatformSettings(fakePlatformApi([service]));
    await user.click(await screen.findByRole("button", { name: "Remove Storage" }));
    let confirm = await screen.findByRole("alertdialog", { name: "Are you sure you want to delete this service?" });
    await user.click(within(confirm).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(api.writes()).toEqual([]);
    expect(screen.getByTestId("service-card")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Remove Storage" }));
    confirm = await screen.findByRole("alertdialog", { name: "Are you sure you want to delete this service?" });
    await user.click(within(confirm).getByRole("button", { name: "Remove" }));
    expect(within(await findToast("Service removed")).getByText("Storage has been removed.")).toBeInTheDocument();
    expect(api.writes()).toEqual([
      { method: "DELETE", path: apiUrl(platformApi.deleteService, { params: { id: service.id } }), body: undefined },
    ]);
    expect(await screen.findByRole("heading", { name: "No Services Configured" })).toBeInTheDocument();
  });

  it("toasts 'Failed to remove service: …' when the removal fails", async () => {
    const service = buildService({ serviceName: "Storage" });
    const { user } = openPlatformSettings(fakePlatformApi([service]));
    server.use(handle(platformApi.deleteService, () => apiError(404, "Service not found")));
    await user.click(await screen.findByRole("button", { name: "Remove Storage" }));
    const confirm = await screen.findByRole("alertdialog");
    await user.click(within(confirm).getByRole("button", { name: "Remove" }));
    expect(within(await findToast("Error")).getByText("Failed to remove service: Service not found")).toBeInTheDocument();
  });
});
