import { screen, waitFor, within } from "@testing-library/react";
import * as authApi from "@shared/api/auth";
import { authKeys } from "@/lib/auth/auth-keys";
import { AUTH_TOKEN_KEY } from "@/lib/auth-token-key";
import { buildAuthResponse, buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";

async function openSignIn(path = "/") {
  const view = renderApp({ path });
  await screen.findByRole("button", { name: "Sign in" });
  return view;
}

describe("sign-in", () => {
  it("shows the schema's messages and marks the fields invalid", async () => {
    const { user } = await openSignIn();
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    const username = screen.getByLabelText("Username");
    const password = screen.getByLabelText("Password");
    expect(await screen.findByText("Username is required")).toBeInTheDocument();
    expect(screen.getByText("Password is required")).toBeInTheDocument();
    expect(username).toHaveAttribute("aria-invalid", "true");
    expect(password).toHaveAttribute("aria-invalid", "true");
    expect(username).toHaveAccessibleDescription("Username is required");
    expect(password).toHaveAccessibleDescription("Password is required");
  });

  it("reads 'Signing in...' while the request is pending", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.use(
      handle(authApi.login, async () => {
        await released;
        return apiError(401, "Invalid username or password");
      }),
    );
    const { user } = await openSignIn();
    await user.type(screen.getByLabelText("Username"), "ada");
    await user.type(screen.getByLabelText("Password"), "secret1");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    const pending = await screen.findByRole("button", { name: "Signing in..." });
    expect(pending).toBeDisabled();
    release();
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeEnabled();
  });

  it("stores the token, caches the user, welcomes them and shows the dashboard", async () => {
    const signedIn = buildUser({ firstName: "Grace", username: "grace" });
    let body: unknown;
    server.use(
      handle(authApi.login, ({ body: sent }) => {
        body = sent;
        return buildAuthResponse({ ...signedIn, token: "fresh-token" });
      }),
    );
    const { user, queryClient } = await openSignIn();
    await user.type(screen.getByLabelText("Username"), "grace");
    await user.type(screen.getByLabelText("Password"), "secret1");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    const toast = await findToast("Login successful");
    expect(within(toast).getByText("Welcome, Grace!")).toBeInTheDocument();
    expect(body).toEqual({ username: "grace", password: "secret1" });
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBe("fresh-token");
    expect(queryClient.getQueryData(authKeys.user())).toEqual(signedIn);
    expect(await screen.findByRole("heading", { level: 1, name: "Dashboard" })).toBeInTheDocument();
  });

  it("welcomes by username when there is no first name", async () => {
    server.use(handle(authApi.login, () => buildAuthResponse({ firstName: null, username: "hopper" })));
    const { user } = await openSignIn();
    await user.type(screen.getByLabelText("Username"), "hopper");
    await user.type(screen.getByLabelText("Password"), "secret1");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(within(await findToast("Login successful")).getByText("Welcome, hopper!")).toBeInTheDocument();
  });

  it("toasts 'Login failed' and stores nothing when the server refuses", async () => {
    server.use(handle(authApi.login, () => apiError(401, "Invalid username or password")));
    const { user } = await openSignIn();
    await user.type(screen.getByLabelText("Username"), "ada");
    await user.type(screen.getByLabelText("Password"), "wrong-password");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    const toast = await findToast("Login failed");
    expect(within(toast).getByText("Invalid username or password. Please try again.")).toBeInTheDocument();
    expect(toast).toHaveClass("destructive");
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    expect(screen.getByRole("button", { name: "Sign in" })).toBeInTheDocument();
  });

  it("returns to the signed-in page the visitor asked for", async () => {
    server.use(handle(authApi.login, () => buildAuthResponse()));
    const { user, currentPath } = await openSignIn("/meetings/5");
    await user.type(screen.getByLabelText("Username"), "ada");
    await user.type(screen.getByLabelText("Password"), "secret1");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Meeting not found" })).toBeInTheDocument();
    await waitFor(() => expect(currentPath()).toBe("/meetings/5"));
  });

  it("shows and hides the password on request", async () => {
    const { user } = await openSignIn();
    const password = screen.getByLabelText("Password");
    const toggle = screen.getByRole("button", { name: "Show password" });
    expect(password).toHaveAttribute("type", "password");
    await user.click(toggle);
    expect(password).toHaveAttribute("type", "text");
    expect(toggle).toHaveAttribute("aria-pressed", "true");
    await user.click(toggle);
    expect(password).toHaveAttribute("type", "password");
  });

  it("links to registration", async () => {
    const { user, currentPath } = await openSignIn();
    await user.click(screen.getByRole("link", { name: "Register" }));
    expect(await screen.findByRole("button", { name: "Create account" })).toBeInTheDocument();
    expect(currentPath()).toBe("/register");
  });
});
