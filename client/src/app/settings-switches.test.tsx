import { screen, waitFor } from "@testing-library/react";
import * as accountApi from "@shared/api/account";
import { preferenceDefaults } from "@shared/preferences";
import { apiError, handle, networkError } from "@/testing/handle";
import { server } from "@/testing/server";
import { renderSettings } from "@/testing/settings-fixtures";
import { findToast } from "@/testing/toasts";

describe("Switches", () => {
  it("show the defaults on the Notifications and Preferences tabs", async () => {
    const { user } = renderSettings();
    await user.click(await screen.findByRole("tab", { name: "Notifications" }));
    const expectSwitch = async (name: string, on: boolean) =>
      expect(await screen.findByRole("switch", { name })).toHaveAttribute("aria-checked", String(on));
    await waitFor(() => expect(screen.getByRole("switch", { name: "Meeting Reminders" })).toBeEnabled());
    await expectSwitch("Meeting Reminders", true);
    await expectSwitch("Document Updates", true);
    await expectSwitch("Resolution Voting", true);
    await expectSwitch("Board Member Updates", false);
    await expectSwitch("Email Digest", true);
    await user.click(screen.getByRole("tab", { name: "Preferences" }));
    await expectSwitch("Dark Mode", false);
    await expectSwitch("Compact View", false);
    await expectSwitch("Auto-save Drafts", true);
    await expectSwitch("Show Tooltips", true);
  });

  it("Dark Mode: saved on toggle, and the theme turns dark at once", async () => {
    const { user, sent } = renderSettings();
    await user.click(await screen.findByRole("tab", { name: "Preferences" }));
    const darkMode = await screen.findByRole("switch", { name: "Dark Mode" });
    await waitFor(() => expect(darkMode).toBeEnabled());
    await user.click(darkMode);
    expect(darkMode).toHaveAttribute("aria-checked", "true");
    await waitFor(() => expect(document.documentElement).toHaveClass("dark"));
    await waitFor(() => expect(sent).toEqual([{ method: "PUT", path: "preferences", body: { darkMode: true } }]));
    expect(window.localStorage.getItem("quorum.theme")).toBe("dark");
  });

  it("follows the user: a dark preference saved elsewhere turns this browser dark after sign-in", async () => {
    renderSettings({ preferences: { ...preferenceDefaults, darkMode: true } });
    await waitFor(() => expect(document.documentElement).toHaveClass("dark"));
  });

  it("puts a switch back and toasts when saving fails", async () => {
    const { user } = renderSettings();
    server.use(handle(accountApi.updatePreferences, () => apiError(500, "Internal error"), { params: { id: 7 } }));
    await user.click(await screen.findByRole("tab", { name: "Notifications" }));
    const reminders = await screen.findByRole("switch", { name: "Meeting Reminders" });
    await waitFor(() => expect(reminders).toBeEnabled());
    await user.click(reminders);
    expect(await findToast("Error")).toHaveTextContent("Your change could not be saved. Please try again.");
    expect(reminders).toHaveAttribute("aria-checked", "true");
  });

  it("puts Dark Mode back (and the theme with it) when saving fails", async () => {
    const { user } = renderSettings();
    server.use(handle(accountApi.updatePreferences, () => networkError(), { params: { id: 7 } }));
    await user.click(await screen.findByRole("tab", { name: "Preferences" }));
    const darkMode = await screen.findByRole("switch", { name: "Dark Mode" });
    await waitFor(() => expect(darkMode).toBeEnabled());
    await user.click(darkMode);
    await findToast("Error");
    expect(darkMode).toHaveAttribute("aria-checked", "false");
    expect(document.documentElement).not.toHaveClass("dark");
  });

  it("Compact View marks the page for compact spacing", async () => {
    const { user } = renderSettings();
    await user.click(await screen.findByRole("tab", { name: "Preferences" }));
    const compact = await screen.findByRole("switch", { name: "Compact View" });
    await waitFor(() => expect(compact).toBeEnabled());
    expect(document.documentElement).not.toHaveAttribute("data-density");
    await user.click(compact);
    expect(document.documentElement).toHaveAttribute("data-density", "compact");
    await user.click(compact);
    expect(document.documentElement).not.toHaveAttribute("data-density");
  });

  it("Show Tooltips: an icon-only button names itself in a tooltip, and not once switched off", async () => {
    const { user } = renderSettings();
    const bell = await screen.findByRole("button", { name: "Notifications" });
    await user.hover(bell);
    const tooltip = await screen.findByRole("tooltip", {}, { timeout: 2000 });
    expect(tooltip).toHaveTextContent("Notifications");
    expect(bell).toHaveAttribute("aria-describedby", tooltip.id);
    await user.unhover(bell);
    expect(screen.queryByRole("tooltip")).not.toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Preferences" }));
    const tooltips = await screen.findByRole("switch", { name: "Show Tooltips" });
    await waitFor(() => expect(tooltips).toBeEnabled());
    await user.click(tooltips);
    await user.hover(bell);
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(screen.queryByRole("tooltip")).not.toBeInTheDocument();
  });
});
