import { screen, waitFor } from "@testing-library/react";
import * as identityApi from "@shared/api/identity";
import { AUTH_TOKEN_KEY } from "@/lib/auth-token-key";
import { buildUser } from "@/testing/factories";
import { apiError, handle, type FakeAnswer } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";

const sentText = "If an account has that address, we have sent it a link to reset the password. It works for 30 minutes.";

/** The reset endpoints: the request always answers 202; the confirmation as `confirm` says. */
function serveReset(
  confirm: () => FakeAnswer<typeof identityApi.confirmPasswordReset> = () => ({ message: "Your password has been changed." }),
) {
  const state = { requested: [] as unknown[], confirmed: [] as unknown[] };
  server.use(
    handle(identityApi.requestPasswordReset, ({ body }) => {
      state.requested.push(body);
      return { message: "If an account has that address, a link is on its way." };
    }),
    handle(identityApi.confirmPasswordReset, ({ body }) => {
      state.confirmed.push(body);
      return confirm();
    }),
  );
  return state;
}

describe("Forgot password", () => {
  it("goes from sign-in to /forgot-password, asks for the address, and says the same whatever the answer", async () => {
    const state = serveReset();
    const { user, currentPath } = renderApp({ path: "/" });
    await user.click(await screen.findByRole("link", { name: "Forgot password?" }));
    expect(currentPath()).toBe("/forgot-password");
    expect(await screen.findByRole("heading", { level: 1, name: "Forgot your password?" })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Send reset link" }));
    expect(await screen.findByText("Please enter a valid email address")).toBeInTheDocument();
    expect(state.requested).toEqual([]);

    await user.type(screen.getByLabelText("Email"), "nobody@example.com");
    await user.click(screen.getByRole("button", { name: "Send reset link" }));
    expect(await screen.findByText(sentText)).toBeInTheDocument();
    expect(state.requested).toEqual([{ email: "nobody@example.com" }]);
    expect(screen.queryByRole("button", { name: "Send reset link" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to sign in" })).toHaveAttribute("href", "/");
  });

  it("says a refusal for too many requests as the server says it", async () => {
    server.use(handle(identityApi.requestPasswordReset, () => apiError(429, "Too many resets for this address. Try again in an hour.")));
    const { user } = renderApp({ path: "/forgot-password" });
    await user.type(await screen.findByLabelText("Email"), "ada@example.com");
    await user.click(screen.getByRole("button", { name: "Send reset link" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Too many resets for this address. Try again in an hour.");
    expect(screen.queryByText(sentText)).not.toBeInTheDocument();
  });
});

describe("/reset-password", () => {
  it("takes the new password twice, sends it with the link's token, then offers sign-in", async () => {
    const state = serveReset();
    const { user } = renderApp({ path: "/reset-password?token=reset-token" });
    expect(await screen.findByRole("heading", { level: 1, name: "Choose a new password" })).toBeInTheDocument();

    await user.type(screen.getByLabelText("New password"), "brand-new-1");
    await user.type(screen.getByLabelText("Confirm new password"), "brand-new-2");
    await user.click(screen.getByRole("button", { name: "Set new password" }));
    expect(await screen.findByText("The passwords do not match")).toBeInTheDocument();
    expect(state.confirmed).toEqual([]);

    await user.clear(screen.getByLabelText("Confirm new password"));
    await user.type(screen.getByLabelText("Confirm new password"), "brand-new-1");
    await user.click(screen.getByRole("button", { name: "Set new password" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Your password has been changed. Sign in with your new password.");
    expect(screen.getByText("If your account has a second factor, you will still be asked for it.")).toBeInTheDocument();
    expect(state.confirmed).toEqual([{ token: "reset-token", newPassword: "brand-new-1" }]);
    await user.click(screen.getByRole("link", { name: "Sign in" }));
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
  });

  it("signed in: the reset ends this session too", async () => {
    serveReset();
    const { user } = renderApp({ path: "/reset-password?token=reset-token", signedInAs: buildUser() });
    await user.type(await screen.findByLabelText("New password"), "brand-new-1");
    await user.type(screen.getByLabelText("Confirm new password"), "brand-new-1");
    await user.click(screen.getByRole("button", { name: "Set new password" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Your password has been changed.");
    await waitFor(() => expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull());
  });

  it("says why a used or expired link cannot reset, and offers to ask for a new one", async () => {
    serveReset(() => apiError(410, "This link was already used or has expired."));
    const { user, currentPath } = renderApp({ path: "/reset-password?token=spent" });
    await user.type(await screen.findByLabelText("New password"), "brand-new-1");
    await user.type(screen.getByLabelText("Confirm new password"), "brand-new-1");
    await user.click(screen.getByRole("button", { name: "Set new password" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This link was already used or has expired.");
    expect(screen.queryByLabelText("New password")).not.toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Ask for a new link" }));
    expect(currentPath()).toBe("/forgot-password");
  });

  it("without a token, asks nothing and offers a new link", async () => {
    const state = serveReset();
    renderApp({ path: "/reset-password" });
    expect(await screen.findByRole("alert")).toHaveTextContent("This link is not valid. Ask for a new one.");
    expect(screen.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute("href", "/forgot-password");
    expect(state.confirmed).toEqual([]);
  });
});
