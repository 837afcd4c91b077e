import { screen, waitFor, within } from "@testing-library/react";
import { HttpResponse } from "msw";
import * as accountApi from "@shared/api/account";
import { apiError, handle, malformed } from "@/testing/handle";
import { server } from "@/testing/server";
import { renderSettings, sessions, type SettingsView } from "@/testing/settings-fixtures";
import { findToast } from "@/testing/toasts";

/** Fills the three password fields of the Security form. */
async function fillPasswords(form: HTMLElement, user: SettingsView["user"], current: string, next: string, confirm = next) {
  await user.type(within(form).getByLabelText("Current password"), current);
  await user.type(within(form).getByLabelText("New password"), next);
  await user.type(within(form).getByLabelText("Confirm new password"), confirm);
}

describe("Security", () => {
  async function openSecurity(user: SettingsView["user"]) {
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
