import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import * as auditApi from "@shared/api/audit";
import type { AuditEventView } from "@shared/audit";
import type { ChainVerdict } from "@shared/audit-chain";
import { apiUrl } from "@/lib/api-client";
import { apiError, handle, type FakeAnswer } from "@/testing/handle";
import { renderWithProviders } from "@/testing/render";
import { server } from "@/testing/server";
import { AuditLog } from "@/features/audit/components/audit-log";
import { summariseDetails } from "@/features/audit/lib/audit-labels";

const headHash = "ab".repeat(32);
const members = [
  { id: 1, name: "Fay Founder" },
  { id: 2, name: "Adam Admin" },
];

const event = (seq: number, fields: Partial<AuditEventView> = {}): AuditEventView => ({
  seq,
  at: `2026-06-01T09:${String(seq).padStart(2, "0")}:00.000Z`,
  actorId: 1,
  actorName: "Fay Founder",
  companyId: 1,
  action: "company.update",
  targetType: "company",
  targetId: "1",
  details: { fields: ["name"] },
  prevHash: "0".repeat(64),
  hash: String(seq).repeat(64).slice(0, 64),
  ...fields,
});

/** Serves the list and records each query it was asked with. */
function serveList(answer: (query: URLSearchParams) => FakeAnswer<typeof auditApi.listAuditEvents>) {
  const queries: URLSearchParams[] = [];
  server.use(
    handle(
      auditApi.listAuditEvents,
      ({ request }) => {
        const query = new URL(request.url).searchParams;
        queries.push(query);
        return answer(query);
      },
      { params: { companyId: 1 } },
    ),
  );
  return queries;
}

const renderLog = () => renderWithProviders(<AuditLog companyId={1} members={members} />);
const rows = () => within(screen.getByRole("list", { name: "Audit events" })).getAllByRole("listitem");

describe("AuditLog", () => {
  it("lists the events with readable actions, actors and details, the head hash, and loads more by cursor", async () => {
    const queries = serveList((query) =>
      query.get("cursor") === "3-next"
        ? {
            events: [event(2, { action: "resolution.decided", actorId: null, actorName: null, details: null })],
            nextCursor: null,
            headHash,
          }
        : {
            events: [
              event(4, {
                action: "meeting.updated",
                targetType: "meeting",
                targetId: "9",
                details: { change: "confirmed", status: { from: "pending", to: "confirmed" } },
              }),
              event(3, { actorId: 2, actorName: "Adam Admin" }),
            ],
            nextCursor: "3-next",
            headHash,
          },
    );
    const { user } = renderLog();

    expect(await screen.findByText("Meeting changed")).toBeInTheDocument();
    expect(screen.getByTestId("audit-head-hash")).toHaveTextContent(headHash);
    expect(rows()).toHaveLength(2);
    expect(rows()[0]).toHaveTextContent("#4");
    expect(rows()[0]).toHaveTextContent("meeting #9");
    expect(rows()[0]).toHaveTextContent("change: confirmed · status: pending → confirmed");
    expect(rows()[1]).toHaveTextContent("Adam Admin");
    expect(queries[0]!.get("cursor")).toBeNull();

    await user.click(screen.getByRole("button", { name: "Load more" }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(queries.at(-1)!.get("cursor")).toBe("3-next");
    expect(rows()[2]).toHaveTextContent("Resolution decided");
    expect(rows()[2]).toHaveTextContent("Quorum");
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
  });

  it("filters by action, actor and dates, and says when nothing matches", async () => {
    const queries = serveList((query) => ({ events: query.size > 1 ? [] : [event(1)], nextCursor: null, headHash }));
    const { user } = renderLog();
    await screen.findByText("Company settings changed");

    await user.click(screen.getByRole("combobox", { name: "Action" }));
    const voteCast = await screen.findByRole("option", { name: "Vote cast" });
    // Only what a company's trail records: a person's own account and the platform's keys are never in it.
    for (const platformOnly of ["Password changed", "Passkey added", "Service key added"]) {
      expect(screen.queryByRole("option", { name: platformOnly })).toBeNull();
    }
    await user.click(voteCast);
    expect(await screen.findByText("No events match these filters.")).toBeInTheDocument();
    expect(queries.at(-1)!.get("action")).toBe("resolution.voted");

    await user.click(screen.getByRole("combobox", { name: "Actor" }));
    await user.click(await screen.findByRole("option", { name: "Adam Admin" }));
    await waitFor(() => expect(queries.at(-1)!.get("actorId")).toBe("2"));

    fireEvent.change(screen.getByLabelText("From"), { target: { value: "2026-06-01" } });
    fireEvent.change(screen.getByLabelText("To"), { target: { value: "2026-06-02" } });
    await waitFor(() => expect(queries.at(-1)!.get("to")).toBe(new Date("2026-06-02T23:59:59.999").toISOString()));
    expect(queries.at(-1)!.get("from")).toBe(new Date("2026-06-01T00:00:00.000").toISOString());

    await user.click(screen.getByRole("button", { name: "Clear filters" }));
    expect(await screen.findByText("Company settings changed")).toBeInTheDocument();
  });

  it("verifies the chain: verified with its count, or the first broken event", async () => {
    serveList(() => ({ events: [event(1)], nextCursor: null, headHash }));
    let verdict: ChainVerdict = { ok: true, count: 12, headHash };
    server.use(handle(auditApi.verifyAuditChain, () => verdict, { params: { companyId: 1 } }));
    const { user } = renderLog();
    await screen.findByText("Company settings changed");

    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("Chain verified: 12 events")).toBeInTheDocument();
    verdict = { ok: false, count: 3, brokenAt: { seq: 4 } };
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("Chain broken at event #4")).toBeInTheDocument();
  });

  it("offers the export as a download of the cookie-authenticated address", async () => {
    serveList(() => ({ events: [], nextCursor: null, headHash: "0".repeat(64) }));
    renderLog();
    expect(await screen.findByText("Nothing has been recorded yet.")).toBeInTheDocument();
    const link = screen.getByRole("link", { name: "Export" });
    expect(link).toHaveAttribute("href", apiUrl(auditApi.exportAuditEvents, { params: { companyId: 1 } }));
    expect(link).toHaveAttribute("download");
  });

  it("shows the server's message when the log cannot be read", async () => {
    serveList(() => apiError(403, "Only founders and admins can read the audit log"));
    renderLog();
    expect(await screen.findByRole("alert")).toHaveTextContent("Only founders and admins can read the audit log");
  });
});

describe("summariseDetails", () => {
  it("writes details on one line, changes as from → to, and cuts long ones", () => {
    expect(summariseDetails(null)).toBe("");
    expect(summariseDetails({ items: ["Accounts", "Budget"], count: 2, note: null })).toBe(
      "items: Accounts, Budget · count: 2 · note: none",
    );
    expect(summariseDetails({ nested: { a: 1 } })).toBe('nested: {"a":1}');
    expect(summariseDetails({ from: null, to: 75 })).toBe("none → 75");
    const long = summariseDetails({ text: "x".repeat(500) });
    expect(long).toHaveLength(160);
    expect(long.endsWith("…")).toBe(true);
  });
});
