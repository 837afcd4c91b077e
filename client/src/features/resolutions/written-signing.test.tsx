import { waitFor, within } from "@testing-library/react";
import { startAuthentication } from "@simplewebauthn/browser";
import * as resolutionsApi from "@shared/api/resolutions";
import { freezeDateAt } from "@/testing/clock";
import { apiError, handle } from "@/testing/handle";
import { server } from "@/testing/server";
import { runInTimeZone } from "@/testing/time-zone";
import { findToastBehindModal } from "@/testing/toasts";
import { now } from "@/testing/resolution-fixtures";
import {
  buildWritten,
  buildWrittenCertificate,
  buildWrittenState,
  openWritten,
  serveWritten,
  writtenSha,
} from "@/testing/written-fixtures";

// The browser's WebAuthn ceremony, as the signing calls it: it answers at once with an assertion.
vi.mock("@simplewebauthn/browser", () => ({
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(async () => ({ id: "cred-1", rawId: "cred-1", type: "public-key", response: { signature: "c2ln" } })),
}));

runInTimeZone("UTC");
freezeDateAt(now);
beforeEach(() => vi.mocked(startAuthentication).mockClear());

describe("a written resolution opened", () => {
  it("shows the text rendered and as written, its SHA-256, the rule, who has signed and who has not, but never how", async () => {
    serveWritten(
      buildWritten(60, {
        documents: [{ id: 4, name: "Budget.pdf", fileType: "application/pdf", hasFile: true, version: 1, replacedAt: null }],
      }),
    );
    const { dialog, user } = await openWritten();
    expect(within(dialog).getByText("Written resolution · lapses June 21, 2026")).toBeInTheDocument();
    // Rendered: the Markdown's heading, bold words and list items.
    const rendered = within(dialog).getByRole("tabpanel", { name: "Rendered" });
    expect(within(rendered).getByRole("heading", { name: "Budget" })).toBeInTheDocument();
    expect(within(rendered).getByText("FY27 budget").tagName).toBe("STRONG");
    expect(
      within(rendered)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Capex: 1.2m", "Opex: 3.4m"]);
    await user.click(within(dialog).getByRole("tab", { name: "As written" }));
    expect(within(dialog).getByRole("tabpanel", { name: "As written" }).textContent).toContain(
      "RESOLVED, that the **FY27 budget** is adopted.",
    );
    expect(within(dialog).getByLabelText("SHA-256 of the text")).toHaveTextContent(writtenSha);
    expect(within(within(dialog).getByRole("region", { name: "Papers" })).getByText("Budget.pdf")).toBeInTheDocument();
    expect(within(dialog).getByText("every eligible director must agree; lapses after 28 days.")).toBeInTheDocument();
    expect(within(within(dialog).getByRole("list", { name: "Signed" })).getByRole("listitem")).toHaveTextContent(
      "Fay Founder · May 30, 2026 at 9:15 AM",
    );
    expect(
      within(within(dialog).getByRole("list", { name: "Not yet signed" }))
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Mia Member", "Dan Director"]);
    expect(within(dialog).queryByText(/I agree/, { selector: "li, li *" })).not.toBeInTheDocument();
    // Unanimous: no meeting can be asked for; and this member may not nudge.
    const decision = within(dialog).getByRole("group", { name: "Your decision" });
    expect(
      within(decision)
        .getAllByRole("button")
        .map((button) => button.textContent),
    ).toEqual(["I agree", "I do not agree"]);
    expect(within(dialog).queryByRole("button", { name: /Nudge/ })).not.toBeInTheDocument();
  });

  it("offers 'I ask for a meeting' under the majority rule", async () => {
    const rule = { kind: "majority", lapseDays: 14, allowWithdrawal: true, meetingDemandPercent: 33 } as const;
    serveWritten(buildWritten(60, { written: buildWrittenState({ rule }) }));
    const { dialog } = await openWritten();
    const decision = within(dialog).getByRole("group", { name: "Your decision" });
    expect(
      within(decision)
        .getAllByRole("button")
        .map((button) => button.textContent),
    ).toEqual(["I agree", "I do not agree", "I ask for a meeting"]);
    expect(
      within(dialog).getByText(
        "more than half of the eligible directors must agree, and 33% of them may ask for a meeting instead; lapses after 14 days.",
      ),
    ).toBeInTheDocument();
  });
});

describe("signing a written resolution", () => {
  it("with a passkey: the statement's options go to the browser, and its assertion comes back with the statement", async () => {
    const state = serveWritten(buildWritten(60), { passkeys: true });
    const asked: unknown[] = [];
    const signed: unknown[] = [];
    const options = { challenge: "c3RhdGVtZW50", allowCredentials: [{ id: "cred-1", type: "public-key" }], userVerification: "required" };
    server.use(
      handle(resolutionsApi.signOptions, ({ body, params }) => {
        asked.push({ params, body });
        return { statement: '{"decision":"agree","nonce":"n1"}', challenge: "c3RhdGVtZW50", options };
      }),
      handle(resolutionsApi.signResolution, ({ body }) => {
        signed.push(body);
        state.details = buildWritten(60, {
          written: buildWrittenState({
            signed: [...buildWrittenState().signed, { userId: 7, name: "Mia Member", signedAt: "2026-06-01T15:00:00.000Z" }],
            awaiting: [{ userId: 8, name: "Dan Director" }],
            mine: { decision: "agree", method: "passkey", signedAt: "2026-06-01T15:00:00.000Z" },
            maySign: false,
            mayWithdraw: true,
          }),
        });
        return state.details;
      }),
    );
    const { dialog, user } = await openWritten();
    await user.click(within(dialog).getByRole("button", { name: "I agree" }));
    const form = within(dialog).getByRole("form", { name: "Sign: I agree" });
    expect(within(form).getByRole("heading", { name: "Sign: I agree" })).toHaveFocus();
    expect(within(form).queryByLabelText("Password")).not.toBeInTheDocument();
    await user.click(within(form).getByRole("button", { name: "Sign with a passkey" }));

    await waitFor(() => expect(signed).toHaveLength(1));
    expect(asked).toEqual([{ params: { id: 60 }, body: { decision: "agree" } }]);
    expect(vi.mocked(startAuthentication)).toHaveBeenCalledWith({ optionsJSON: options });
    expect(signed[0]).toEqual({
      decision: "agree",
      statement: '{"decision":"agree","nonce":"n1"}',
      response: { id: "cred-1", rawId: "cred-1", type: "public-key", response: { signature: "c2ln" } },
    });
    expect(await findToastBehindModal("Signed")).toHaveTextContent("Your signature is recorded: I agree.");
    expect(await within(dialog).findByText("You signed “I agree” with a passkey on June 1, 2026 at 3:00 PM.")).toBeInTheDocument();
    expect(within(dialog).queryByRole("group", { name: "Your decision" })).not.toBeInTheDocument();
    // The form is gone: the focus is on the signature it recorded.
    expect(within(dialog).getByRole("heading", { name: "Your signature" })).toHaveFocus();
  });

  it("moves the focus to the outcome when the caller's signature decides it", async () => {
    const state = serveWritten(buildWritten(60));
    const certificate = buildWrittenCertificate();
    server.use(
      handle(resolutionsApi.signResolution, () => {
        state.details = buildWritten(60, {
          status: "approved",
          decidedAt: certificate.decidedAt,
          explanation: certificate.explanation,
          written: buildWrittenState({ maySign: false }),
          writtenCertificate: certificate,
        });
        return state.details;
      }),
    );
    const { dialog, user } = await openWritten();
    await user.click(within(dialog).getByRole("button", { name: "I agree" }));
    await user.type(within(dialog).getByLabelText("Password"), "board-password-1");
    await user.click(within(dialog).getByRole("button", { name: "Sign with my password" }));
    const outcome = await within(dialog).findByRole("region", { name: "Passed" });
    await waitFor(() => expect(within(outcome).getByRole("heading", { name: "Passed" })).toHaveFocus());
  });

  it("says so when the browser's passkey request is cancelled, and nothing is signed", async () => {
    serveWritten(buildWritten(60), { passkeys: true });
    const signed: unknown[] = [];
    server.use(
      handle(resolutionsApi.signOptions, () => ({ statement: "{}", challenge: "e30", options: { challenge: "e30" } })),
      handle(resolutionsApi.signResolution, ({ body }) => {
        signed.push(body);
        return buildWritten(60);
      }),
    );
    vi.mocked(startAuthentication).mockRejectedValueOnce(
      Object.assign(new Error("The operation either timed out or was not allowed."), { name: "NotAllowedError" }),
    );
    const { dialog, user } = await openWritten();
    await user.click(within(dialog).getByRole("button", { name: "I do not agree" }));
    await user.click(within(dialog).getByRole("button", { name: "Sign with a passkey" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("No passkey was used: the request was cancelled or timed out.");
    expect(signed).toEqual([]);
  });

  it("with the password and the authenticator code where the account has an app, showing the server's refusal", async () => {
    const state = serveWritten(buildWritten(60), { app: true });
    const signed: unknown[] = [];
    server.use(
      handle(resolutionsApi.signResolution, ({ body }) => {
        signed.push(body);
        if ("password" in body && body.code !== "123456") return apiError(400, "The password or the code is wrong");
        state.details = buildWritten(60, {
          written: buildWrittenState({
            mine: { decision: "disagree", method: "password+totp", signedAt: "2026-06-01T15:00:00.000Z" },
            maySign: false,
          }),
        });
        return state.details;
      }),
    );
    const { dialog, user } = await openWritten();
    await user.click(within(dialog).getByRole("button", { name: "I do not agree" }));
    const form = within(dialog).getByRole("form", { name: "Sign: I do not agree" });
    // No passkey: no passkey button, and the password is asked.
    expect(within(form).queryByRole("button", { name: /passkey/ })).not.toBeInTheDocument();
    await user.click(within(form).getByRole("button", { name: "Sign with my password" }));
    expect(await within(form).findByRole("alert")).toHaveTextContent("Enter your password");
    expect(signed).toEqual([]);

    await user.type(within(form).getByLabelText("Password"), "board-password-1");
    await user.type(within(form).getByLabelText("Code from your authenticator app"), "000000");
    await user.click(within(form).getByRole("button", { name: "Sign with my password" }));
    await waitFor(() => expect(within(form).getByRole("alert")).toHaveTextContent("The password or the code is wrong"));

    await user.clear(within(form).getByLabelText("Code from your authenticator app"));
    await user.type(within(form).getByLabelText("Code from your authenticator app"), "123456");
    await user.click(within(form).getByRole("button", { name: "Sign with my password" }));
    expect(
      await within(dialog).findByText("You signed “I do not agree” with the password and a code on June 1, 2026 at 3:00 PM."),
    ).toBeInTheDocument();
    expect(signed.at(-1)).toEqual({ decision: "disagree", password: "board-password-1", code: "123456" });
  });

  it("with the password alone when the account has no app, and by choice when it has a passkey", async () => {
    serveWritten(buildWritten(60), { passkeys: true, app: false });
    const signed: unknown[] = [];
    server.use(
      handle(resolutionsApi.signResolution, ({ body }) => {
        signed.push(body);
        return buildWritten(60, { written: buildWrittenState({ maySign: false }) });
      }),
    );
    const { dialog, user } = await openWritten();
    await user.click(within(dialog).getByRole("button", { name: "I agree" }));
    await user.click(within(dialog).getByRole("button", { name: "Use my password instead" }));
    expect(within(dialog).queryByLabelText("Code from your authenticator app")).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText("Password"), "board-password-1");
    await user.click(within(dialog).getByRole("button", { name: "Sign with my password" }));
    await waitFor(() => expect(signed).toEqual([{ decision: "agree", password: "board-password-1" }]));
    expect(vi.mocked(startAuthentication)).not.toHaveBeenCalled();
  });

  it("withdraws the caller's signature where the rule allows", async () => {
    const state = serveWritten(
      buildWritten(60, {
        written: buildWrittenState({
          mine: { decision: "agree", method: "passkey", signedAt: "2026-05-31T10:00:00.000Z" },
          maySign: false,
          mayWithdraw: true,
        }),
      }),
    );
    server.use(
      handle(resolutionsApi.withdrawSignature, () => {
        state.details = buildWritten(60);
        return state.details;
      }),
    );
    const { dialog, user } = await openWritten();
    await user.click(within(dialog).getByRole("button", { name: "Withdraw my signature" }));
    expect(await findToastBehindModal("Signature withdrawn")).toBeInTheDocument();
    expect(await within(dialog).findByRole("group", { name: "Your decision" })).toBeInTheDocument();
    expect(within(dialog).queryByText(/You signed/)).not.toBeInTheDocument();
  });
});
