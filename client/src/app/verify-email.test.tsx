import { screen, waitFor, within } from "@testing-library/react";
import * as authApi from "@shared/api/auth";
import * as identityApi from "@shared/api/identity";
import type { User } from "@shared/auth";
import { linkTokenMessage } from "@shared/identity";
import { apiUrl } from "@/lib/api-client";
import { buildUser } from "@/testing/factories";
import { apiError, handle, type FakeAnswer } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";

/** The verify endpoint: answers `answer` and counts the tokens it was given. */
function serveVerify(answer: () => FakeAnswer<typeof identityApi.verifyEmail>) {
  const tokens: unknown[] = [];
  server.use(
    handle(identityApi.verifyEmail, ({ body }) => {
      tokens.push(body);
      return answer();
    }),
  );
  return tokens;
}

describe("/verify-email", () => {
  it("signed out: confirms nothing on opening; the button proves the address once, says so and offers sign-in", async () => {
    const tokens = serveVerify(() => buildUser({ email: "ada@example.com", emailVerified: true }));
    const started: string[] = [];
    server.events.on("request:start", ({ request }) => {
      if (new URL(request.url).pathname === apiUrl(identityApi.verifyEmail)) started.push(request.method);
    });
    const { user } = renderApp({ path: "/verify-email?token=verify-token" });
    expect(await screen.findByRole("heading", { level: 1, name: "Confirm your e-mail address" })).toBeInTheDocument();
    expect(
      screen.getByText("Confirm that this e-mail address belongs to your Quorum account. Only confirm if you created the account."),
    ).toBeInTheDocument();
    const confirm = screen.getByRole("button", { name: "Confirm my address" });
    // A link scanner only opens the page: the page has drawn (its effects have run) and no confirmation went out.
    expect(started).toEqual([]);
    expect(tokens).toEqual([]);

    await user.click(confirm);
    expect(await screen.findByRole("heading", { level: 1, name: "Your e-mail address is confirmed" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("ada@example.com is now the confirmed address of your account.");
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/");
    expect(tokens).toEqual([{ token: "verify-token" }]);
  });

  it("signed in: reads the current user again, so the banner goes", async () => {
    let current: User = buildUser({ id: 4, email: "ada@example.com", emailVerified: false });
    serveVerify(() => {
      current = { ...current, emailVerified: true };
      return current;
    });
    const { user } = renderApp({ path: "/verify-email?token=verify-token", signedInAs: current });
    server.use(handle(authApi.currentUser, () => current));
    await user.click(await screen.findByRole("button", { name: "Confirm my address" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Your e-mail address is confirmed" })).toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Go to the dashboard" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Dashboard" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Your e-mail address" })).not.toBeInTheDocument();
  });

  it("shows the server's message for a spent link", async () => {
    serveVerify(() => apiError(410, "This link was already used or has expired."));
    const { user } = renderApp({ path: "/verify-email?token=spent" });
    await user.click(await screen.findByRole("button", { name: "Confirm my address" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This link was already used or has expired.");
    expect(screen.queryByRole("button", { name: "Confirm my address" })).not.toBeInTheDocument();
  });

  it("without a token, says the link is incomplete and offers no button", async () => {
    const tokens = serveVerify(() => buildUser());
    renderApp({ path: "/verify-email" });
    expect(await screen.findByRole("alert")).toHaveTextContent(linkTokenMessage);
    expect(screen.queryByRole("button", { name: "Confirm my address" })).not.toBeInTheDocument();
    expect(tokens).toEqual([]);
  });
});

describe("the e-mail banner", () => {
  it("asks an unverified user to confirm, sends the link again (202 → toast), and can be dismissed", async () => {
    let resent = 0;
    server.use(
      handle(identityApi.resendVerification, () => {
        resent += 1;
        return { message: "A new link is on its way to ada@example.com." };
      }),
    );
    const { user } = renderApp({ path: "/", signedInAs: buildUser({ email: "ada@example.com", emailVerified: false }) });
    const banner = await screen.findByRole("region", { name: "Your e-mail address" });
    expect(banner).toHaveTextContent("Confirm your e-mail address: we sent a link to ada@example.com.");
    await user.click(within(banner).getByRole("button", { name: "Send again" }));
    expect(
      within(await findToast("Verification e-mail sent")).getByText("A new link is on its way to ada@example.com."),
    ).toBeInTheDocument();
    expect(resent).toBe(1);

    await user.click(within(banner).getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("region", { name: "Your e-mail address" })).not.toBeInTheDocument();
  });

  it("tells a user whose address another account proved to add a new one in Settings", async () => {
    renderApp({ path: "/", signedInAs: buildUser({ email: "", emailVerified: false }) });
    const banner = await screen.findByRole("region", { name: "Your e-mail address" });
    expect(banner).toHaveTextContent("Your e-mail address was confirmed by another account. Add a new one in Settings.");
    expect(within(banner).getByRole("link", { name: "Open Settings" })).toHaveAttribute("href", "/settings");
    expect(within(banner).queryByRole("button", { name: "Send again" })).not.toBeInTheDocument();
  });

  it("is not shown to a verified user", async () => {
    renderApp({ path: "/", signedInAs: buildUser({ emailVerified: true }) });
    expect(await screen.findByRole("heading", { level: 1, name: "Dashboard" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Your e-mail address" })).not.toBeInTheDocument();
  });

  it("Settings' profile shows an address waiting for its confirmation", async () => {
    renderApp({ path: "/settings", signedInAs: buildUser({ email: "ada@example.com", pendingEmail: "ada@new.example.com" }) });
    const summary = await screen.findByTestId("profile-summary");
    expect(summary).toHaveTextContent("Waiting for confirmation: ada@new.example.com");
    await waitFor(() => expect(summary).toHaveTextContent("ada@example.com"));
  });
});
