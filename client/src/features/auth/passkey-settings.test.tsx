import { screen, waitFor, within } from "@testing-library/react";
import * as secondFactorApi from "@shared/api/second-factor";
import type { Passkey } from "@shared/second-factor";
import { PasskeySettings } from "@/features/auth/components/passkey-settings";
import { handle } from "@/testing/handle";
import { renderWithProviders } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";

const laptop: Passkey = { id: 7, name: "Work laptop", createdAt: "2026-01-05T10:00:00.000Z", lastUsedAt: null };
const phone: Passkey = { id: 8, name: "Phone", createdAt: "2026-01-06T10:00:00.000Z", lastUsedAt: "2026-01-07T10:00:00.000Z" };

const registrationOptions = {
  challenge: "token",
  options: {
    challenge: "Y2hhbGxlbmdl",
    rp: { id: "localhost", name: "Quorum" },
    user: { id: "dXNlcg", name: "ada", displayName: "Ada" },
    pubKeyCredParams: [{ type: "public-key", alg: -7 }],
    excludeCredentials: [],
  },
};

/** The browser's WebAuthn: `create` answers as the test says (the one browser boundary the section crosses). */
function stubBrowserCredentials(create: () => Promise<unknown>) {
  vi.stubGlobal("PublicKeyCredential", class {});
  Object.defineProperty(navigator, "credentials", { configurable: true, value: { create: vi.fn(create), get: vi.fn() } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "credentials");
});

describe("Settings → Security: passkeys", () => {
  it("lists the passkeys with when each was added and last used", async () => {
    server.use(handle(secondFactorApi.listPasskeys, () => [laptop, phone]));
    renderWithProviders(<PasskeySettings />);
    const list = await screen.findByRole("list", { name: "Your passkeys" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^Work laptopAdded .* ago · never used$/),
      expect.stringMatching(/^PhoneAdded .* ago · last used .* ago$/),
    ]);
  });

  it("asks for a name before the browser, and says in place that a cancelled ceremony added nothing", async () => {
    const posted = vi.fn();
    server.use(
      handle(secondFactorApi.listPasskeys, () => []),
      handle(secondFactorApi.passkeyRegisterOptions, () => registrationOptions),
      handle(secondFactorApi.registerPasskey, () => {
        posted();
        return laptop;
      }),
    );
    stubBrowserCredentials(() => Promise.reject(new DOMException("The operation either timed out or was not allowed.", "NotAllowedError")));
    const { user } = renderWithProviders(<PasskeySettings />);
    await screen.findByText("You have no passkeys yet.");

    await user.click(screen.getByRole("button", { name: "Add a passkey" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Name the passkey, e.g. the device it is on");
    expect(navigator.credentials.create).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText("Name of the new passkey"), "Work laptop");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Add a passkey" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("No passkey was added: the request was cancelled or timed out.");
    expect(navigator.credentials.create).toHaveBeenCalledTimes(1);
    expect(posted).not.toHaveBeenCalled();
    expect(screen.getByLabelText("Name of the new passkey")).toHaveAccessibleDescription(
      "No passkey was added: the request was cancelled or timed out.",
    );
  });

  it("removes a passkey only after the confirmation", async () => {
    let passkeys = [laptop, phone];
    const removed: string[] = [];
    server.use(
      handle(secondFactorApi.listPasskeys, () => passkeys),
      handle(secondFactorApi.deletePasskey, ({ params }) => {
        removed.push(String(params.id));
        passkeys = passkeys.filter((passkey) => passkey.id !== params.id);
      }),
    );
    const { user } = renderWithProviders(<PasskeySettings />);
    await user.click(await screen.findByRole("button", { name: "Remove passkey Phone" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Remove the passkey?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(removed).toEqual([]);

    await user.click(screen.getByRole("button", { name: "Remove passkey Phone" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Remove passkey" }));
    await findToast("Passkey removed");
    expect(removed).toEqual(["8"]);
    await waitFor(() => expect(screen.queryByText("Phone")).not.toBeInTheDocument());
    expect(screen.getByText("Work laptop")).toBeInTheDocument();
  });
});
