import { within } from "@testing-library/react";
import * as resolutionsApi from "@shared/api/resolutions";
import { apiUrl } from "@/lib/api-client";
import { freezeDateAt } from "@/testing/clock";
import { apiError, handle } from "@/testing/handle";
import { server } from "@/testing/server";
import { runInTimeZone } from "@/testing/time-zone";
import { findToastBehindModal } from "@/testing/toasts";
import { me, now } from "@/testing/resolution-fixtures";
import { buildWritten, buildWrittenCertificate, buildWrittenState, openWritten, serveWritten } from "@/testing/written-fixtures";

// A written resolution seen by those who did not sign it yet from the outside (nudges) and once decided.
runInTimeZone("UTC");
freezeDateAt(now);

describe("nudging a director who has not signed", () => {
  it("reminds one, and shows the server's refusal when they were nudged already; never offers to nudge oneself", async () => {
    const awaiting = [
      { userId: me.id, name: "Mia Member" },
      { userId: 8, name: "Dan Director" },
      { userId: 9, name: "Ravi Trustee" },
    ];
    serveWritten(buildWritten(60, { written: buildWrittenState({ awaiting, mayNudge: true, maySign: false }) }));
    const nudged: unknown[] = [];
    server.use(
      handle(resolutionsApi.nudgeSigner, ({ body }) => {
        nudged.push(body);
        if (body.userId === 8) return apiError(409, "Dan Director was already nudged in the last day");
      }),
    );
    const { dialog, user } = await openWritten();
    const awaitingList = within(dialog).getByRole("list", { name: "Not yet signed" });
    expect(within(awaitingList).getByText("Mia Member")).toBeInTheDocument();
    expect(
      within(awaitingList)
        .getAllByRole("button")
        .map((button) => button.getAttribute("aria-label")),
    ).toEqual(["Nudge Dan Director", "Nudge Ravi Trustee"]);
    await user.click(within(dialog).getByRole("button", { name: "Nudge Ravi Trustee" }));
    expect(await findToastBehindModal("Reminder sent")).toHaveTextContent("Ravi Trustee has been reminded to sign.");
    expect(within(dialog).getByRole("button", { name: "Nudge Ravi Trustee" })).toBeDisabled();
    await user.click(within(dialog).getByRole("button", { name: "Nudge Dan Director" }));
    expect(await findToastBehindModal("Not sent")).toHaveTextContent("Dan Director was already nudged in the last day");
    expect(nudged).toEqual([{ userId: 9 }, { userId: 8 }]);
  });
});

describe("a decided written resolution", () => {
  it("shows the outcome with its explanation, the effective time, and the certificate as JSON and in the library", async () => {
    const certificate = buildWrittenCertificate();
    serveWritten(
      buildWritten(60, {
        status: "approved",
        decidedAt: certificate.decidedAt,
        explanation: certificate.explanation,
        written: buildWrittenState({ maySign: false }),
        writtenCertificate: certificate,
      }),
    );
    const { dialog } = await openWritten();
    const outcome = within(dialog).getByRole("region", { name: "Passed" });
    expect(within(outcome).getByText(certificate.explanation)).toBeInTheDocument();
    expect(within(outcome).getByText("Effective").nextSibling).toHaveTextContent("June 1, 2026 at 2:05 PM");
    expect(within(outcome).getByText(/Mia Member: I agree \(with the password and a code\)/)).toBeInTheDocument();
    expect(within(outcome).getByRole("link", { name: "Certificate (JSON)" })).toHaveAttribute(
      "href",
      apiUrl(resolutionsApi.writtenCertificate, { params: { id: 60 } }),
    );
    expect(within(outcome).getByRole("link", { name: "Certificate PDF in the library" })).toHaveAttribute(
      "href",
      "/documents?search=Resolution%20Certificates",
    );
    expect(within(dialog).queryByRole("group", { name: "Your decision" })).not.toBeInTheDocument();
  });
});
