import { screen, waitFor, within } from "@testing-library/react";
import * as accountApi from "@shared/api/account";
import * as authApi from "@shared/api/auth";
import * as secondFactorApi from "@shared/api/second-factor";
import type { User } from "@shared/auth";
import { totpCodeMessage, type TotpSetup } from "@shared/second-factor";
import { buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";
import { groupSecret } from "@/features/auth/components/totp-setup";

const setup: TotpSetup = {
  secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
  otpauthUrl: "otpauth://totp/Quorum:ada?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Quorum",
  qrSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"><path d="M0 0h7v7H0z"/></svg>',
};
const recoveryCodes = Array.from({ length: 10 }, (_, index) => `abcd${index + 2}-efgh${index + 2}`);
const wrongCodeMessage = "That code does not match. Check that the time on your device is right, and enter the current code.";

/** Settings → Security of a user; the server keeps the second-factor flag and records what it was sent. */
async function openSecurity({ secondFactor = false, appOn }: { secondFactor?: boolean; appOn?: boolean } = {}) {
  let current: User = buildUser({ id: 7, secondFactor });
  const sent: { path: string; body: unknown }[] = [];
  let userReads = 0;
  server.use(
    handle(authApi.currentUser, () => {
      userReads += 1;
      return current;
    }),
    handle(accountApi.listSessions, () => [], { params: { id: 7 } }),
    handle(secondFactorApi.listPasskeys, () => []),
    handle(secondFactorApi.getTotpStatus, () => ({ enabled: appOn ?? secondFactor })),
    handle(secondFactorApi.setupTotp, () => {
      sent.push({ path: "setup", body: null });
      return setup;
    }),
    handle(secondFactorApi.confirmTotp, ({ body }) => {
      sent.push({ path: "confirm", body });
      if (body.code !== "123456") {
        return apiError(400, { message: wrongCodeMessage, errors: [{ path: "code", message: wrongCodeMessage }] });
      }
      current = { ...current, secondFactor: true };
      return { recoveryCodes };
    }),
    handle(secondFactorApi.disableTotp, ({ body }) => {
      sent.push({ path: "disable", body });
      if (body.password !== "board-password-1") return apiError(400, "The password or the code is wrong");
      current = { ...current, secondFactor: false };
    }),
  );
  const view = renderApp({ path: "/settings", token: "totp-test-token" });
  await screen.findByRole("heading", { level: 1, name: "Settings" });
  await view.user.click(screen.getByRole("tab", { name: "Security" }));
  const card = (await screen.findByRole("heading", { level: 2, name: "Two-factor sign-in" })).closest<HTMLElement>("[data-slot=card]")!;
  return { ...view, card, sent, userReads: () => userReads };
}

describe("two-factor sign-in in Settings → Security", () => {
  it("groups the key in fours for reading", () => {
    expect(groupSecret("JBSWY3DPEHPK3PXP")).toBe("JBSW Y3DP EHPK 3PXP");
    expect(groupSecret("ABCDEF")).toBe("ABCD EF");
  });

  it("sets up the app: QR code and key, a first code, then the ten recovery codes once", async () => {
    const { user, card, sent, userReads } = await openSecurity();
    // The password form stays beside it.
    expect(screen.getByRole("form", { name: "Change password" })).toBeInTheDocument();
    expect(within(card).getByText(/Two-factor sign-in is off/)).toBeInTheDocument();

    await user.click(within(card).getByRole("button", { name: "Set up two-factor sign-in" }));

    const qr = await within(card).findByRole("img", { name: "QR code to scan with your authenticator app" });
    // Drawn as an image from the server's SVG: nothing of it is put into the page as markup.
    expect(qr.getAttribute("src")).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`);
    expect(card.querySelector("svg path[d='M0 0h7v7H0z']")).toBeNull();
    expect(within(card).getByText("JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP")).toBeInTheDocument();

    await user.click(within(card).getByRole("button", { name: "Copy key" }));
    await findToast("Copied");
    expect(await navigator.clipboard.readText()).toBe(setup.secret);

    const code = within(card).getByLabelText("Code from the app");
    expect(code).toHaveAttribute("inputmode", "numeric");
    expect(code).toHaveAttribute("autocomplete", "one-time-code");

    // Not six digits: the shared message, and nothing is sent.
    await user.type(code, "12ab");
    await user.click(within(card).getByRole("button", { name: "Verify" }));
    expect(await within(card).findByText(totpCodeMessage)).toBeInTheDocument();
    expect(sent.filter((request) => request.path === "confirm")).toEqual([]);

    // A wrong code: the server's message under the field, and the set-up stays.
    await user.clear(code);
    await user.type(code, "654321");
    await user.click(within(card).getByRole("button", { name: "Verify" }));
    expect(await within(card).findByText(wrongCodeMessage)).toBeInTheDocument();
    expect(code).toHaveAttribute("aria-invalid", "true");

    const readsBefore = userReads();
    await user.clear(code);
    await user.type(code, "123456");
    await user.click(within(card).getByRole("button", { name: "Verify" }));

    const list = await within(card).findByRole("list", { name: "Recovery codes" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(recoveryCodes);
    expect(sent.filter((request) => request.path === "confirm").at(-1)?.body).toEqual({ code: "123456" });
    // The user object is read again, so everything that shows the second factor follows.
    await waitFor(() => expect(userReads()).toBeGreaterThan(readsBefore));

    const download = within(card).getByRole("link", { name: "Download .txt" });
    expect(download).toHaveAttribute("download", "quorum-recovery-codes.txt");
    const text = decodeURIComponent(download.getAttribute("href")!.replace("data:text/plain;charset=utf-8,", ""));
    for (const recovery of recoveryCodes) expect(text).toContain(recovery);

    await user.click(within(card).getByRole("button", { name: "Copy codes" }));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe(recoveryCodes.join("\n")));

    await user.click(within(card).getByRole("button", { name: "I have saved these codes" }));
    // Shown once: gone, and the app reads as on.
    expect(within(card).queryByRole("list", { name: "Recovery codes" })).toBeNull();
    expect(within(card).getByText("Two-factor sign-in is on.")).toBeInTheDocument();
    expect(within(card).getByRole("button", { name: "Turn off" })).toBeInTheDocument();
  });

  it("turns the app off with the password and a current code; a wrong one is said in the form", async () => {
    const { user, card, sent } = await openSecurity({ secondFactor: true });
    expect(await within(card).findByText("Two-factor sign-in is on.")).toBeInTheDocument();
    await user.click(within(card).getByRole("button", { name: "Turn off" }));

    const form = within(card).getByRole("form", { name: "Turn off two-factor sign-in" });
    await user.type(within(form).getByLabelText("Password"), "not-my-password");
    await user.type(within(form).getByLabelText("Code from the app"), "123456");
    await user.click(within(form).getByRole("button", { name: "Turn off" }));
    expect(await within(form).findByRole("alert")).toHaveTextContent("The password or the code is wrong");

    await user.clear(within(form).getByLabelText("Password"));
    await user.type(within(form).getByLabelText("Password"), "board-password-1");
    await user.click(within(form).getByRole("button", { name: "Turn off" }));

    await findToast("Two-factor sign-in turned off");
    expect(sent.at(-1)).toEqual({ path: "disable", body: { password: "board-password-1", code: "123456" } });
    expect(await within(card).findByRole("button", { name: "Set up two-factor sign-in" })).toBeInTheDocument();
  });

  it("offers the set-up when the second factor is not an authenticator app (nothing to turn off)", async () => {
    const { user, card } = await openSecurity({ secondFactor: true });
    server.use(handle(secondFactorApi.disableTotp, () => apiError(404, "No authenticator app is on")));
    await user.click(await within(card).findByRole("button", { name: "Turn off" }));
    await user.type(within(card).getByLabelText("Password"), "board-password-1");
    await user.type(within(card).getByLabelText("Code from the app"), "123456");
    await user.click(within(card).getByRole("button", { name: "Turn off" }));

    expect(await within(card).findByRole("status")).toHaveTextContent("No authenticator app is on for your account.");
    expect(within(card).getByRole("button", { name: "Set up two-factor sign-in" })).toBeInTheDocument();
  });

  it("offers the set-up, not a turn-off, to a user whose only second factor is a passkey", async () => {
    const { card } = await openSecurity({ secondFactor: true, appOn: false });
    expect(await within(card).findByRole("button", { name: "Set up two-factor sign-in" })).toBeInTheDocument();
    expect(within(card).queryByRole("button", { name: "Turn off" })).toBeNull();
    expect(within(card).queryByText("Two-factor sign-in is on.")).toBeNull();
  });
});
