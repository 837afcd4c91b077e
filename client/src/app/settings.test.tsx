import { screen, waitFor, within } from "@testing-library/react";
import { HttpResponse } from "msw";
import type { AccountSession } from "@shared/account";
import * as accountApi from "@shared/api/account";
import * as authApi from "@shared/api/auth";
import * as complianceApi from "@shared/api/compliance";
import type { User } from "@shared/auth";
import { preferenceDefaults, type Preferences } from "@shared/preferences";
import { buildUser } from "@/testing/factories";
import { apiError, handle, malformed, networkError } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";

const sessions: AccountSession[] = [
  { id: 11, device: "Chrome on macOS", createdAt: "2026-11-20T10:00:00.000Z", lastUsedAt: new Date().toISOString(), current: true },
  { id: 12, device: "Firefox on Linux", createdAt: "2026-11-01T10:00:00.000Z", lastUsedAt: "2026-11-21T10:00:00.000Z", current: false },
];

/** The signed-in user at /settings; the server keeps the switches and records what it was sent. */
function renderSettings({ user = buildUser({ id: 7 }), preferences = preferenceDefaults as Preferences } = {}) {
  const sent: { method: string; path: string; body: unknown }[] = [];
  let stored = { ...preferences };
  let current: User = user;
  server.use(
    handle(authApi.currentUser, () => current),
    handle(accountApi.getPreferences, () => stored, { params: { id: user.id } }),
    handle(
      accountApi.updatePreferences,
      ({ body }) => {
        sent.push({ method: "PUT", path: "preferences", body });
        stored = { ...stored, ...body };
        return stored;
      },
      { params: { id: user.id } },
    ),
    handle(accountApi.listSessions, () => sessions, { params: { id: user.id } }),
    handle(
      complianceApi.getCalendarFeed,
      ({ query }) => {
        const companyId = query.companyId ?? 0;
        return { url: feedUrl(user.id, companyId, "first-key"), companyId };
      },
      { params: { id: user.id } },
    ),
    handle(
      accountApi.updateProfile,
      ({ body }) => {
        sent.push({ method: "PATCH", path: "profile", body });
        current = { ...current, ...body, profileImageUrl: body.profileImageUrl || null };
        return current;
      },
      { params: { id: user.id } },
    ),
  );
  // The token only: the handlers above answer for the user, so a saved profile is what is read back.
  const rendered = renderApp({ path: "/settings", token: "settings-test-token" });
  return { ...rendered, sent, account: user };
}

const feedUrl = (userId: number, companyId: number, key: string) =>
  `http://quorum.test/api/calendar-feed.ics?user=${userId}&company=${companyId}&key=${key}`;

/** Fills the three password fields of the Security form. */
async function fillPasswords(
  form: HTMLElement,
  user: ReturnType<typeof renderSettings>["user"],
  current: string,
  next: string,
  confirm = next,
) {
  await user.type(within(form).getByLabelText("Current password"), current);
  await user.type(within(form).getByLabelText("New password"), next);
  await user.type(within(form).getByLabelText("Confirm new password"), confirm);
}

const sidebar = () => screen.getByRole("complementary", { name: "Sidebar" });

describe("Settings page", () => {
  it("shows four tabs, the profile first with the user's avatar initials, name, e-mail and role", async () => {
    renderSettings({ user: buildUser({ id: 7, firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", role: "admin" }) });
    expect(await screen.findByRole("heading", { level: 1, name: "Settings" })).toBeInTheDocument();
    expect(screen.getAllByRole("tab").map((tab) => tab.textContent)).toEqual(["Profile", "Security", "Notifications", "Preferences"]);
    const summary = screen.getByTestId("profile-summary");
    expect(within(summary).getByText("AL")).toBeInTheDocument();
    expect(within(summary).getByText("Ada Lovelace")).toBeInTheDocument();
    expect(within(summary).getByText("ada@example.com")).toBeInTheDocument();
    expect(within(summary).getByText("Admin")).toBeInTheDocument();
    expect(screen.getByLabelText("First name")).toHaveValue("Ada");
    expect(screen.getByLabelText("Email")).toHaveValue("ada@example.com");
  });
});

describe("Profile", () => {
  it("saves the profile with PATCH, toasts, and the sidebar shows the new name at once", async () => {
    const { user, sent } = renderSettings();
    const firstName = await screen.findByLabelText("First name");
    await user.clear(firstName);
    await user.type(firstName, "Augusta");
    await user.type(screen.getByLabelText("Profile image URL"), "https://images.example.com/a.png");
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    await findToast("Profile updated");
    expect(sent).toEqual([
      {
        method: "PATCH",
        path: "profile",
        body: {
          firstName: "Augusta",
          lastName: "Lovelace",
          email: "user7@example.com",
          profileImageUrl: "https://images.example.com/a.png",
        },
      },
    ]);
    expect(within(sidebar()).getByText("Augusta Lovelace")).toBeInTheDocument();
  });

  it("shows the profile messages and sends nothing while they stand", async () => {
    const { user, sent } = renderSettings();
    await user.clear(await screen.findByLabelText("First name"));
    await user.clear(screen.getByLabelText("Last name"));
    await user.clear(screen.getByLabelText("Email"));
    await user.type(screen.getByLabelText("Email"), "nope");
    await user.type(screen.getByLabelText("Profile image URL"), "http://example.com/a.png");
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText("First name is required")).toBeInTheDocument();
    expect(screen.getByText("Last name is required")).toBeInTheDocument();
    expect(screen.getByText("Invalid email address")).toBeInTheDocument();
    expect(screen.getByText("Please enter a valid https URL")).toBeInTheDocument();
    expect(screen.getByLabelText("First name")).toHaveAttribute("aria-invalid", "true");
    expect(sent).toEqual([]);
  });

  it("puts a taken e-mail on the field and toasts 'Failed to update profile: …'", async () => {
    const { user } = renderSettings();
    // The declaration lists no 409 for a profile change (a new address waits for its link), yet the form still puts
    // a conflict's message on the field it names: an answer the contract does not allow, sent as is.
    server.use(
      handle(accountApi.updateProfile, () => malformed(HttpResponse.json({ message: "Email already registered" }, { status: 409 })), {
        params: { id: 7 },
      }),
    );
    const email = await screen.findByLabelText("Email");
    await user.clear(email);
    await user.type(email, "taken@example.com");
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    const toast = await findToast("Error");
    expect(toast).toHaveTextContent("Failed to update profile: Email already registered");
    expect(screen.getByLabelText("Email")).toHaveAccessibleDescription(expect.stringContaining("Email already registered"));
  });
});

describe("Security", () => {
  async function openSecurity(user: ReturnType<typeof renderSettings>["user"]) {
    await user.click(await screen.findByRole("tab", { name: "Security" }));
    return screen.findByRole("form", { name: "Change password" });
  }

  it("has a show/hide toggle on each password field", async () => {
    const { user } = renderSettings();
    const form = await openSecurity(user);
    const toggles = within(form).getAllByRole("button", { name: "Show password" });
    expect(toggles).toHaveLength(3);
    expect(within(form).getByLabelText("New password")).toHaveAttribute("type", "password");
    await user.click(toggles[1]!);
    expect(within(form).getByLabelText("New password")).toHaveAttribute("type", "text");
    expect(within(form).getByLabelText("Current password")).toHaveAttribute("type", "password");
  });

  it("says 'Passwords don't match' on the confirmation and sends nothing", async () => {
    const { user } = renderSettings();
    let called = false;
    server.use(
      handle(
        accountApi.changePassword,
        () => {
          called = true;
          return { message: "Password updated", otherSessionsEnded: 0 };
        },
        { params: { id: 7 } },
      ),
    );
    const form = await openSecurity(user);
    await fillPasswords(form, user, "old-secret", "new-secret-1", "new-secret-2");
    await user.click(within(form).getByRole("button", { name: "Update Password" }));
    expect(await within(form).findByText("Passwords don't match")).toBeInTheDocument();
    expect(within(form).getByLabelText("Confirm new password")).toHaveAttribute("aria-invalid", "true");
    expect(called).toBe(false);
  });

  it("shows the password messages for empty and short fields", async () => {
    const { user } = renderSettings();
    const form = await openSecurity(user);
    await user.type(within(form).getByLabelText("New password"), "abc");
    await user.click(within(form).getByRole("button", { name: "Update Password" }));
    expect(await within(form).findByText("Current password is required")).toBeInTheDocument();
    expect(within(form).getByText("Password must be at least 6 characters")).toBeInTheDocument();
    expect(within(form).getByText("Password confirmation is required")).toBeInTheDocument();
  });

  it("changes the password: toasts 'Password updated' and clears the fields", async () => {
    const { user } = renderSettings();
    let body: unknown;
    server.use(
      handle(
        accountApi.changePassword,
        ({ body: sentBody }) => {
          body = sentBody;
          return { message: "Password updated", otherSessionsEnded: 1 };
        },
        { params: { id: 7 } },
      ),
    );
    const form = await openSecurity(user);
    await fillPasswords(form, user, "old-secret", "new-secret-1");
    await user.click(within(form).getByRole("button", { name: "Update Password" }));
    expect(await findToast("Password updated")).toHaveTextContent("Your password has been successfully changed.");
    expect(body).toEqual({ currentPassword: "old-secret", newPassword: "new-secret-1", confirmPassword: "new-secret-1" });
    await waitFor(() => expect(within(form).getByLabelText("Current password")).toHaveValue(""));
  });

  it("shows the server's message for a wrong current password, in a toast and on the field", async () => {
    const { user } = renderSettings();
    server.use(handle(accountApi.changePassword, () => apiError(400, "Current password is incorrect"), { params: { id: 7 } }));
    const form = await openSecurity(user);
    await fillPasswords(form, user, "wrong-one", "new-secret-1");
    await user.click(within(form).getByRole("button", { name: "Update Password" }));
    expect(await findToast("Error")).toHaveTextContent("Current password is incorrect");
    expect(within(form).getByLabelText("Current password")).toHaveAttribute("aria-invalid", "true");
  });

  it("toasts 'Failed to update password' when the server says nothing", async () => {
    const { user } = renderSettings();
    server.use(handle(accountApi.changePassword, () => malformed(new HttpResponse(null, { status: 500 })), { params: { id: 7 } }));
    const form = await openSecurity(user);
    await fillPasswords(form, user, "old-secret", "new-secret-1");
    await user.click(within(form).getByRole("button", { name: "Update Password" }));
    expect(await findToast("Error")).toHaveTextContent("Failed to update password");
  });

  it("lists the sessions with their device, marks this one, and signs out the others", async () => {
    const { user } = renderSettings();
    let revoked = false;
    server.use(
      handle(
        accountApi.revokeOtherSessions,
        () => {
          revoked = true;
          return { revoked: 1 };
        },
        { params: { id: 7 } },
      ),
    );
    await openSecurity(user);
    const list = await screen.findByRole("list", { name: "Active sessions" });
    const items = within(list).getAllByRole("listitem");
    expect(items[0]).toHaveTextContent("Chrome on macOS");
    expect(items[0]).toHaveTextContent("This device");
    expect(items[1]).toHaveTextContent("Firefox on Linux");
    expect(items[1]).toHaveTextContent(/Last used .* ago/);
    server.use(handle(accountApi.listSessions, () => [sessions[0]!], { params: { id: 7 } }));
    await user.click(screen.getByRole("button", { name: "Sign out other sessions" }));
    expect(await findToast("Signed out")).toHaveTextContent("1 other session has been signed out.");
    expect(revoked).toBe(true);
    await waitFor(() => expect(within(screen.getByRole("list", { name: "Active sessions" })).getAllByRole("listitem")).toHaveLength(1));
    expect(screen.getByRole("button", { name: "Sign out other sessions" })).toBeDisabled();
  });
});

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

describe("Calendar feed", () => {
  async function openFeed(user: ReturnType<typeof renderSettings>["user"]) {
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
