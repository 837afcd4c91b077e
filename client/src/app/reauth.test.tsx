import { screen, waitFor, within } from "@testing-library/react";
import * as accountApi from "@shared/api/account";
import * as authApi from "@shared/api/auth";
import * as identityApi from "@shared/api/identity";
import * as secondFactorApi from "@shared/api/second-factor";
import type { Passkey } from "@shared/second-factor";
import { AUTH_TOKEN_KEY } from "@/lib/auth-token-key";
import { buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";

// The browser's WebAuthn ceremonies, as the passkey helper calls them: each answers at once.
vi.mock("@simplewebauthn/browser", () => ({
  startRegistration: vi.fn(async () => ({ id: "new-credential", rawId: "new-credential", type: "public-key", response: {} })),
  startAuthentication: vi.fn(async () => ({ id: "old-credential", rawId: "old-credential", type: "public-key", response: {} })),
}));

const laptop: Passkey = { id: 7, name: "Work laptop", createdAt: "2026-01-05T10:00:00.000Z", lastUsedAt: null };
const reauthRequired = () => apiError(401, { message: "Confirm it's you to make this change.", code: "reauth_required" });

/**
 * A server whose security changes need a fresh proof: adding a passkey answers 401 reauth_required until the session
 * has proved itself by password (and code, where `code` is set), or by a passkey.
 */
function serveFreshProof({ code }: { code?: string } = {}) {
  const state = { proved: false, reauths: [] as unknown[], optionsAsked: 0, registered: [] as unknown[], passkeys: [] as Passkey[] };
  server.use(
    handle(accountApi.listSessions, () => []),
    handle(secondFactorApi.listPasskeys, () => state.passkeys),
    handle(secondFactorApi.passkeyRegisterOptions, () => {
      state.optionsAsked += 1;
      if (!state.proved) return reauthRequired();
      return { challenge: "register-challenge", options: { challenge: "Y2hhbGxlbmdl" } };
    }),
    handle(secondFactorApi.registerPasskey, ({ body }) => {
      state.registered.push(body);
      state.passkeys = [laptop];
      return laptop;
    }),
    handle(identityApi.reauthenticate, ({ body }) => {
      state.reauths.push(body);
      if (body.password !== "board-password-1" || (code !== undefined && body.code !== code)) {
        return apiError(400, "The password or the code is wrong");
      }
      state.proved = true;
      return { until: "2026-03-01T10:10:00.000Z" };
    }),
    handle(identityApi.reauthPasskeyOptions, () => ({ challenge: "reauth-challenge", options: { challenge: "cmVhdXRo" } })),
    handle(identityApi.reauthWithPasskey, ({ body }) => {
      state.reauths.push(body);
      state.proved = true;
      return { until: "2026-03-01T10:10:00.000Z" };
    }),
  );
  return state;
}

async function addPasskey(secondFactor = false) {
  const view = renderApp({ path: "/settings", signedInAs: buildUser({ id: 3, secondFactor }) });
  await view.user.click(await screen.findByRole("tab", { name: "Security" }));
  await view.user.type(await screen.findByLabelText("Name of the new passkey"), "Work laptop");
  await view.user.click(screen.getByRole("button", { name: "Add a passkey" }));
  return view;
}

describe("a security change that needs a fresh proof", () => {
  it("asks for the password in 'Confirm it's you', then makes the passkey call again and adds it", async () => {
    const state = serveFreshProof();
    const { user } = await addPasskey();
    const dialog = await screen.findByRole("dialog", { name: "Confirm it's you" });
    // Without a second factor, only the password is asked.
    expect(within(dialog).queryByLabelText("Code from your authenticator app")).not.toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Use a passkey" })).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText("Password")).toHaveFocus();

    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Enter your password");
    await user.type(within(dialog).getByLabelText("Password"), "wrong-password");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await within(dialog).findByText("The password or the code is wrong")).toBeInTheDocument();
    expect(state.registered).toEqual([]);

    await user.clear(within(dialog).getByLabelText("Password"));
    await user.type(within(dialog).getByLabelText("Password"), "board-password-1");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    await findToast("Passkey added");
    expect(screen.queryByRole("dialog", { name: "Confirm it's you" })).not.toBeInTheDocument();
    expect(state.reauths).toEqual([{ password: "wrong-password" }, { password: "board-password-1" }]);
    // Refused once, then made again once the session had proved itself.
    expect(state.optionsAsked).toBe(2);
    expect(state.registered).toEqual([{ name: "Work laptop", response: expect.objectContaining({ id: "new-credential" }) }]);
    // Still signed in: a 401 asking for a fresh proof is not a session that ended.
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).not.toBeNull();
    expect(await screen.findByText("Work laptop")).toBeInTheDocument();
  });

  it("with a second factor, asks for the app's code too, or takes a passkey instead", async () => {
    const state = serveFreshProof({ code: "123456" });
    const { user } = await addPasskey(true);
    const dialog = await screen.findByRole("dialog", { name: "Confirm it's you" });
    await user.type(within(dialog).getByLabelText("Password"), "board-password-1");
    const codeField = within(dialog).getByLabelText("Code from your authenticator app");
    expect(codeField).toHaveAccessibleDescription("Leave it empty if your account has no authenticator app.");
    await user.type(codeField, "123456");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    await findToast("Passkey added");
    expect(state.reauths).toEqual([{ password: "board-password-1", code: "123456" }]);
  });

  it("proves with a passkey by 'Use a passkey'", async () => {
    const state = serveFreshProof({ code: "123456" });
    const { user } = await addPasskey(true);
    const dialog = await screen.findByRole("dialog", { name: "Confirm it's you" });
    await user.click(within(dialog).getByRole("button", { name: "Use a passkey" }));
    await findToast("Passkey added");
    expect(state.reauths).toEqual([{ challenge: "reauth-challenge", response: expect.objectContaining({ id: "old-credential" }) }]);
    expect(state.registered).toHaveLength(1);
  });

  it("cancelled, the change fails with the server's refusal and nothing is made again", async () => {
    const state = serveFreshProof();
    const { user } = await addPasskey();
    const dialog = await screen.findByRole("dialog", { name: "Confirm it's you" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Confirm it's you" })).not.toBeInTheDocument());
    expect(await screen.findByRole("alert")).toHaveTextContent("Confirm it's you to make this change.");
    expect(state.optionsAsked).toBe(1);
    expect(state.reauths).toEqual([]);
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).not.toBeNull();
  });

  it("a plain 401 still signs out: the session is asked about again, and its 401 ends it", async () => {
    serveFreshProof();
    const signedIn = { value: true };
    const { user } = renderApp({ path: "/settings", signedInAs: buildUser({ id: 3 }) });
    server.use(
      handle(secondFactorApi.passkeyRegisterOptions, () => {
        signedIn.value = false;
        return apiError(401, "Not authenticated");
      }),
      handle(authApi.currentUser, () => (signedIn.value ? buildUser({ id: 3 }) : apiError(401, "Not authenticated"))),
    );
    await user.click(await screen.findByRole("tab", { name: "Security" }));
    await user.type(await screen.findByLabelText("Name of the new passkey"), "Work laptop");
    await user.click(screen.getByRole("button", { name: "Add a passkey" }));
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
    expect(screen.queryByRole("dialog", { name: "Confirm it's you" })).not.toBeInTheDocument();
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });
});
