import { screen, waitFor, within } from "@testing-library/react";
import * as authApi from "@shared/api/auth";
import * as secondFactorApi from "@shared/api/second-factor";
import { secondFactorCodeMessage, totpCodeMessage, type SecondFactorMethod } from "@shared/second-factor";
import { authKeys } from "@/lib/auth/auth-keys";
import { AUTH_TOKEN_KEY } from "@/lib/auth-token-key";
import { buildAuthResponse, buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";

const challenge = "c".repeat(43);

/** Sign-in of an account with a second factor: the password step answers a challenge; the second step is recorded. */
async function passwordStep({ methods = ["totp", "recovery"] as SecondFactorMethod[], path = "/" } = {}) {
  const secondSteps: unknown[] = [];
  const signedIn = buildUser({ firstName: "Grace", username: "grace", secondFactor: true });
  server.use(
    handle(authApi.login, () => ({ secondFactorRequired: true, challenge, methods })),
    handle(secondFactorApi.loginSecondFactor, ({ body }) => {
      secondSteps.push(body);
      if (body.code === "123456" || body.code === "abcde-fghjk") return buildAuthResponse({ ...signedIn, token: "second-token" });
      return apiError(401, "Invalid code");
    }),
  );
  const view = renderApp({ path });
  await screen.findByRole("button", { name: "Sign in" });
  await view.user.type(screen.getByLabelText("Username"), "grace");
  await view.user.type(screen.getByLabelText("Password"), "secret1");
  await view.user.click(screen.getByRole("button", { name: "Sign in" }));
  const form = await screen.findByRole("form", { name: "Two-factor sign-in" });
  return { ...view, form, secondSteps, signedIn };
}

describe("the second step of a sign-in", () => {
  it("asks for the app's code, with no session yet, and signs in with it", async () => {
    const { user, form, secondSteps, signedIn, queryClient } = await passwordStep();
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();

    const code = within(form).getByLabelText("Authentication code");
    expect(code).toHaveAttribute("inputmode", "numeric");
    expect(code).toHaveAttribute("autocomplete", "one-time-code");
    expect(code).toHaveFocus();

    await user.type(code, "123456");
    await user.click(within(form).getByRole("button", { name: "Verify" }));

    const toast = await findToast("Login successful");
    expect(within(toast).getByText("Welcome, Grace!")).toBeInTheDocument();
    expect(secondSteps).toEqual([{ challenge, code: "123456" }]);
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBe("second-token");
    expect(queryClient.getQueryData(authKeys.user())).toEqual(signedIn);
    expect(await screen.findByRole("heading", { level: 1, name: "Dashboard" })).toBeInTheDocument();
  });

  it("says a code that is not six digits is wrong before sending it", async () => {
    const { user, form, secondSteps } = await passwordStep();
    await user.type(within(form).getByLabelText("Authentication code"), "12345");
    await user.click(within(form).getByRole("button", { name: "Verify" }));
    expect(await within(form).findByText(totpCodeMessage)).toBeInTheDocument();
    expect(within(form).getByLabelText("Authentication code")).toHaveAttribute("aria-invalid", "true");
    expect(secondSteps).toEqual([]);
  });

  it("shows a wrong code's refusal in the form and keeps the step", async () => {
    const { user, form, secondSteps } = await passwordStep();
    await user.type(within(form).getByLabelText("Authentication code"), "999999");
    await user.click(within(form).getByRole("button", { name: "Verify" }));

    expect(await within(form).findByRole("alert")).toHaveTextContent("Invalid code");
    expect(within(form).getByLabelText("Authentication code")).toHaveFocus();
    expect(secondSteps).toHaveLength(1);
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();

    // The same sign-in goes on with the right code.
    await user.clear(within(form).getByLabelText("Authentication code"));
    await user.type(within(form).getByLabelText("Authentication code"), "123456");
    await user.click(within(form).getByRole("button", { name: "Verify" }));
    await findToast("Login successful");
  });

  it("takes a recovery code instead, as typed in any letter case", async () => {
    const { user, form, secondSteps } = await passwordStep();
    await user.click(within(form).getByRole("button", { name: "Use a recovery code" }));

    const recovery = within(form).getByLabelText("Recovery code");
    expect(recovery).toHaveFocus();
    expect(recovery).not.toHaveAttribute("inputmode", "numeric");
    await user.type(recovery, "nope");
    await user.click(within(form).getByRole("button", { name: "Verify" }));
    expect(await within(form).findByText(secondFactorCodeMessage)).toBeInTheDocument();

    await user.clear(recovery);
    await user.type(recovery, "ABCDE-FGHJK");
    await user.click(within(form).getByRole("button", { name: "Verify" }));
    await findToast("Login successful");
    expect(secondSteps).toEqual([{ challenge, code: "abcde-fghjk" }]);
  });

  it("offers recovery codes only when the account has them", async () => {
    const { form } = await passwordStep({ methods: ["totp"] });
    expect(within(form).queryByRole("button", { name: "Use a recovery code" })).toBeNull();
  });

  it("offers a passkey when the account has one, for this sign-in, and says when the browser cannot use it", async () => {
    const optionsAsked: unknown[] = [];
    server.use(
      handle(secondFactorApi.passkeyLoginOptions, ({ body }) => {
        optionsAsked.push(body);
        return { challenge: "p".repeat(43), options: { challenge: "abc", allowCredentials: [] } };
      }),
    );
    const { user, form } = await passwordStep({ methods: ["totp", "recovery", "passkey"] });
    await user.click(within(form).getByRole("button", { name: "Use a passkey" }));

    // This test's browser has no WebAuthn: the refusal is said, and the step stays for a code.
    expect(await within(form).findByRole("alert")).toHaveTextContent("This browser does not support passkeys.");
    expect(optionsAsked).toEqual([{ challenge }]);
    expect(within(form).getByLabelText("Authentication code")).toBeInTheDocument();
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });

  it("asks for no code when a passkey is the account's only second factor", async () => {
    const { form } = await passwordStep({ methods: ["passkey"] });
    expect(within(form).getByRole("button", { name: "Use a passkey" })).toBeInTheDocument();
    expect(within(form).queryByLabelText("Authentication code")).toBeNull();
    expect(within(form).queryByRole("button", { name: "Verify" })).toBeNull();
    expect(within(form).queryByRole("button", { name: "Use a recovery code" })).toBeNull();
  });

  it("offers no passkey when the account has none", async () => {
    const { form } = await passwordStep();
    expect(within(form).queryByRole("button", { name: "Use a passkey" })).toBeNull();
  });

  it("goes back to the password step, which keeps the username", async () => {
    const { user, form } = await passwordStep();
    await user.click(within(form).getByRole("button", { name: "Back" }));
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
    expect(screen.getByLabelText("Username")).toHaveValue("grace");
    expect(screen.queryByRole("form", { name: "Two-factor sign-in" })).toBeNull();
  });

  it("sends an expired sign-in back to the password step with the server's word", async () => {
    const { user, form } = await passwordStep();
    server.use(handle(secondFactorApi.loginSecondFactor, () => apiError(401, "The sign-in has expired. Please sign in again.")));
    await user.type(within(form).getByLabelText("Authentication code"), "123456");
    await user.click(within(form).getByRole("button", { name: "Verify" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("The sign-in has expired. Please sign in again.");
    expect(screen.getByRole("button", { name: "Sign in" })).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Two-factor sign-in" })).toBeNull();
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });

  it("returns to the page the visitor asked for after the second step", async () => {
    const { user, form, currentPath } = await passwordStep({ path: "/meetings/5" });
    await user.type(within(form).getByLabelText("Authentication code"), "123456");
    await user.click(within(form).getByRole("button", { name: "Verify" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Meeting not found" })).toBeInTheDocument();
    await waitFor(() => expect(currentPath()).toBe("/meetings/5"));
  });
});
