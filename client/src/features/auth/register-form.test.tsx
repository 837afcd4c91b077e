import { screen, waitFor, within } from "@testing-library/react";
import { HttpResponse } from "msw";
import * as authApi from "@shared/api/auth";
import { authKeys } from "@/lib/auth/auth-keys";
import { AUTH_TOKEN_KEY } from "@/lib/auth-token-key";
import { buildAuthResponse } from "@/testing/factories";
import { apiError, handle, malformed } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";

async function openRegister() {
  const view = renderApp({ path: "/register" });
  await screen.findByRole("button", { name: "Create account" });
  return view;
}

async function fillValidForm(user: ReturnType<typeof renderApp>["user"]) {
  await user.type(screen.getByLabelText("First name"), "Ada");
  await user.type(screen.getByLabelText("Last name"), "Lovelace");
  await user.type(screen.getByLabelText("Username"), "ada");
  await user.type(screen.getByLabelText("Email"), "ada@example.com");
  await user.type(screen.getByLabelText("Password"), "secret1");
}

describe("register", () => {
  it("shows the schema's messages on the invalid fields", async () => {
    const { user } = await openRegister();
    await user.type(screen.getByLabelText("Username"), "ab");
    await user.type(screen.getByLabelText("Email"), "not-an-email");
    await user.type(screen.getByLabelText("Password"), "12345");
    await user.click(screen.getByRole("button", { name: "Create account" }));

    expect(await screen.findByText("Username must be at least 3 characters")).toBeInTheDocument();
    expect(screen.getByText("Please enter a valid email address")).toBeInTheDocument();
    expect(screen.getByText("Password must be at least 6 characters")).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Email")).toHaveAccessibleDescription("Please enter a valid email address");
    // Names are optional.
    expect(screen.getByLabelText("First name")).toHaveAttribute("aria-invalid", "false");
  });

  it("creates a founder account, reads 'Creating account...' meanwhile, and goes to /company-onboarding", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let body: unknown;
    const created = buildAuthResponse({ username: "ada", companyId: null, role: null, token: "new-token" });
    server.use(
      handle(authApi.register, async ({ body: sent }) => {
        body = sent;
        await released;
        return created;
      }),
    );
    const { user, currentPath, queryClient } = await openRegister();
    await fillValidForm(user);
    await user.click(screen.getByRole("button", { name: "Create account" }));

    expect(await screen.findByRole("button", { name: "Creating account..." })).toBeDisabled();
    release();

    const toast = await findToast("Registration successful");
    expect(within(toast).getByText("Your account has been created successfully.")).toBeInTheDocument();
    expect(await screen.findByRole("heading", { level: 1, name: "Set up your company" })).toBeInTheDocument();
    await waitFor(() => expect(currentPath()).toBe("/company-onboarding"));
    expect(body).toEqual({
      username: "ada",
      email: "ada@example.com",
      password: "secret1",
      firstName: "Ada",
      lastName: "Lovelace",
      role: "founder",
    });
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBe("new-token");
    const { token: _token, ...cachedUser } = created;
    expect(queryClient.getQueryData(authKeys.user())).toEqual(cachedUser);
  });

  it("falls back to the user id as the stored token when the answer has none", async () => {
    server.use(
      // An answer without the token its declaration requires, sent as is.
      handle(authApi.register, () =>
        malformed(HttpResponse.json({ ...buildAuthResponse({ id: 42, companyId: null }), token: undefined }, { status: 201 })),
      ),
    );
    const { user } = await openRegister();
    await fillValidForm(user);
    await user.click(screen.getByRole("button", { name: "Create account" }));
    await findToast("Registration successful");
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBe("42");
  });

  it("puts the server's message in the failure toast", async () => {
    server.use(handle(authApi.register, () => apiError(409, "Username already exists")));
    const { user, currentPath } = await openRegister();
    await fillValidForm(user);
    await user.click(screen.getByRole("button", { name: "Create account" }));

    const toast = await findToast("Registration failed");
    expect(within(toast).getByText("Username already exists")).toBeInTheDocument();
    expect(toast).toHaveClass("destructive");
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    expect(currentPath()).toBe("/register");
  });

  it("says the general failure text when the server gives no message", async () => {
    server.use(handle(authApi.register, () => malformed(new HttpResponse(null, { status: 500 }))));
    const { user } = await openRegister();
    await fillValidForm(user);
    await user.click(screen.getByRole("button", { name: "Create account" }));

    const toast = await findToast("Registration failed");
    expect(within(toast).getByText("There was an error creating your account. Please try again.")).toBeInTheDocument();
  });

  it("links back to sign-in", async () => {
    const { user, currentPath } = await openRegister();
    await user.click(screen.getByRole("link", { name: "Sign in" }));
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
    expect(currentPath()).toBe("/");
  });
});
