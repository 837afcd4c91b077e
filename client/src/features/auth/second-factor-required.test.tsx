import { screen, within } from "@testing-library/react";
import type { ApiErrorBody } from "@shared/api-error";
import * as authApi from "@shared/api/auth";
import * as secondFactorApi from "@shared/api/second-factor";
import type { User } from "@shared/auth";
import { buildUser } from "@/testing/factories";
import { apiError, everyEndpoint, handle, nextHandler } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
// The screen is loaded on demand by the app; imported here, it is transformed before the tests' clocks start.
import "@/features/auth/components/second-factor-required-screen";

const refusal: ApiErrorBody = { message: "This company requires two-factor sign-in: set it up first", code: "second_factor_required" };
const UPCOMING_FAILED_TEXT = "The upcoming meetings could not be loaded.";
const recoveryCodes = Array.from({ length: 10 }, (_, index) => `abcd${index + 2}-efgh${index + 2}`);

/**
 * A member of a company that requires a second factor: its routes refuse them (403 with the code) until they have
 * one. The company's reads that were refused are counted.
 */
function companyRequiringSecondFactor({ withCode = true, secondFactor = false } = {}) {
  let current: User = buildUser({ id: 5, companyId: 1, role: "member", secondFactor });
  const refused: string[] = [];
  server.use(
    handle(authApi.currentUser, () => current),
    // Every read of a company named in its path. Nothing answered here falls through to the default handlers (the
    // company's empty lists).
    ...everyEndpoint(
      ({ request }) => {
        if (current.secondFactor && !secondFactor) return nextHandler();
        refused.push(new URL(request.url).pathname);
        return apiError(403, withCode ? refusal : { message: refusal.message });
      },
      ({ method, access }) => method === "GET" && access.class === "company" && access.by === "param",
    ),
    handle(secondFactorApi.listPasskeys, () => []),
    handle(secondFactorApi.setupTotp, () => ({
      secret: "JBSWY3DPEHPK3PXP",
      otpauthUrl: "otpauth://totp/Quorum:a",
      qrSvg: "<svg xmlns='http://www.w3.org/2000/svg'/>",
    })),
    handle(secondFactorApi.confirmTotp, () => {
      current = { ...current, secondFactor: true };
      return { recoveryCodes };
    }),
  );
  return { refused };
}

describe("a company that requires two-factor sign-in", () => {
  it("shows the set-up instead of the page, then the page with its data once the app is set up", async () => {
    const { refused } = companyRequiringSecondFactor();
    const { user } = renderApp({ path: "/", token: "member-token" });

    expect(await screen.findByRole("heading", { level: 1, name: "Two-factor sign-in required" })).toBeInTheDocument();
    expect(screen.getByText(/This company requires every member to use two-factor sign-in/)).toBeInTheDocument();
    expect(screen.queryByRole("heading", { level: 1, name: "Dashboard" })).toBeNull();
    // The shell stays: the member can still switch company or sign out.
    expect(screen.getAllByRole("button", { name: "Logout" }).length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);

    await user.click(screen.getByRole("button", { name: "Set up two-factor sign-in" }));
    await user.type(await screen.findByLabelText("Code from the app"), "123456");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    // The recovery codes are shown before the page comes back.
    const list = await screen.findByRole("list", { name: "Recovery codes" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(10);
    expect(screen.getByRole("heading", { level: 1, name: "Two-factor sign-in required" })).toBeInTheDocument();

    const refusedBefore = refused.length;
    await user.click(screen.getByRole("button", { name: "I have saved these codes" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Dashboard" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { level: 1, name: "Two-factor sign-in required" })).toBeNull();
    // The page's reads were asked again, and answered this time.
    expect(await screen.findByText("No upcoming meetings scheduled.")).toBeInTheDocument();
    expect(refused).toHaveLength(refusedBefore);
  });

  it("leaves the page alone for any other refusal", async () => {
    companyRequiringSecondFactor({ withCode: false });
    renderApp({ path: "/", token: "member-token" });
    expect(await screen.findByRole("heading", { level: 1, name: "Dashboard" })).toBeInTheDocument();
    expect(await screen.findByText(UPCOMING_FAILED_TEXT)).toBeInTheDocument();
    expect(screen.queryByRole("heading", { level: 1, name: "Two-factor sign-in required" })).toBeNull();
  });

  it("does not ask a user who has a second factor to set one up", async () => {
    const { refused } = companyRequiringSecondFactor({ secondFactor: true });
    renderApp({ path: "/", token: "member-token" });
    expect(await screen.findByText(UPCOMING_FAILED_TEXT)).toBeInTheDocument();
    expect(refused.length).toBeGreaterThan(0);
    expect(screen.queryByRole("heading", { level: 1, name: "Two-factor sign-in required" })).toBeNull();
  });
});
