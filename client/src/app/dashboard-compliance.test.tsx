import { act, screen, waitFor, within } from "@testing-library/react";
import { HttpResponse } from "msw";
import * as complianceApi from "@shared/api/compliance";
import { complianceRuleIds, type ComplianceGroup, type ComplianceItem } from "@shared/compliance";
import { dashboardFirstReads } from "@/app/dashboard-reads";
import { setAuthToken } from "@/lib/auth-token";
import { freezeDateAt } from "@/testing/clock";
import { buildUser } from "@/testing/factories";
import { apiError, handle, malformed } from "@/testing/handle";
import { signedInHandlers } from "@/testing/handlers";
import { renderApp, renderWithProviders, TEST_TOKEN } from "@/testing/render";
import { server } from "@/testing/server";
import { ComplianceHealthPanel } from "@/features/compliance/components/compliance-health-panel";

const me = buildUser({ id: 7, companyId: 3 });
const observer = buildUser({ id: 8, companyId: 3, role: "observer" });
const now = new Date("2026-06-01T09:00:00.000Z");

// The dashboard is a lazy route: transform it once before the tests, so no test's waits pay for that on a busy machine.
beforeAll(() => import("@/app/routes/dashboard"), 60_000);

// The reminders' window is measured from here.
freezeDateAt(now);

function item(fields: Partial<ComplianceItem> & Pick<ComplianceItem, "id">): ComplianceItem {
  return { title: fields.id, description: "", status: "completed", category: "meetings", ...fields };
}

function groups(
  meetings: ComplianceItem[],
  documents: ComplianceItem[] = [],
  resolutions: ComplianceItem[] = [],
  progress = [0, 0, 0],
): ComplianceGroup[] {
  return [
    { name: "Meetings", progress: progress[0]!, items: meetings },
    { name: "Documents", progress: progress[1]!, items: documents },
    { name: "Resolutions", progress: progress[2]!, items: resolutions },
  ];
}

/** Answers the verdicts; `asIs` sends them unchecked, for a status this client's declaration does not know. */
function answer(body: ComplianceGroup[] | Promise<ComplianceGroup[]>, { asIs = false } = {}) {
  server.use(
    handle(complianceApi.getCompliance, async () => (asIs ? malformed(HttpResponse.json(await body)) : body), {
      params: { companyId: 3 },
    }),
  );
}

/** The health panel on its own, for the signed-in founder of company 3. */
function renderHealth() {
  setAuthToken(TEST_TOKEN);
  server.use(...signedInHandlers(me));
  return renderWithProviders(<ComplianceHealthPanel />);
}

/** A group's card once its verdict has arrived (the placeholder cards stand there before). */
async function groupCard(name: string): Promise<HTMLElement> {
  const panel = await screen.findByRole("region", { name: "Compliance Health" });
  return (await within(panel).findByRole("progressbar", { name: `${name} compliance` })).closest("li") as HTMLElement;
}

const agm = item({
  id: complianceRuleIds.annualGeneralMeeting,
  title: "Annual General Meeting",
  description: "Within 15 months of the last one",
  status: "pending",
  dueDate: "2026-07-15T00:00:00.000Z",
});
const quarterly = item({
  id: complianceRuleIds.quarterlyBoardMeeting,
  title: "Quarterly board meeting",
  description: "A board meeting every quarter",
  status: "overdue",
  dueDate: "2026-03-31T00:00:00.000Z",
});
const legal = item({ id: complianceRuleIds.legalDocuments, title: "Legal documents on file", status: "overdue", category: "documents" });
const financials = item({
  id: complianceRuleIds.financialStatements,
  title: "Financial statements",
  status: "upcoming",
  dueDate: "2026-12-31T00:00:00.000Z",
  category: "documents",
});
const quorum = item({
  id: complianceRuleIds.decidedWithQuorum,
  title: "Decided with quorum",
  status: "completed",
  category: "resolutions",
});

describe("Compliance Health", () => {
  it("shows each group's score as a bar with a text value, its rules with their status labels and due dates", async () => {
    answer(
      groups(
        [quarterly, agm, item({ id: complianceRuleIds.meetingNotice, title: "Notice period", status: "completed" })],
        [
          financials,
          item({
            id: "documents.future-rule",
            title: "A rule from a newer server",
            status: "archived" as unknown as ComplianceItem["status"],
            category: "documents",
          }),
        ],
        [quorum],
        [33, 0, 100],
      ),
      { asIs: true },
    );
    renderHealth();
    const meetings = await groupCard("Meetings");
    const bar = within(meetings).getByRole("progressbar", { name: "Meetings compliance" });
    expect(bar).toHaveAttribute("aria-valuenow", "33");
    expect(bar).toHaveAttribute("aria-valuetext", "33% complete");
    expect(within(meetings).getByText("33%")).toBeInTheDocument();

    const rows = within(meetings).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual([
      "Quarterly board meetingOverdueDue March 31, 2026",
      "Annual General MeetingIn ProgressDue July 15, 2026",
      "Notice periodCompleted",
    ]);
    const documents = await groupCard("Documents");
    expect(within(documents).getByText("Upcoming")).toBeInTheDocument();
    expect(within(documents).getByText("Due December 31, 2026")).toBeInTheDocument();
    expect(within(documents).getByText("Unknown")).toBeInTheDocument();
    expect(within(await groupCard("Resolutions")).getByText("Completed")).toBeInTheDocument();
  });

  it.each([
    [39, "red", "bg-destructive"],
    [40, "yellow", "bg-warning"],
    [69, "yellow", "bg-warning"],
    [70, "green", "bg-success"],
  ])("colours a score of %i %s", async (progress, tone, indicatorClass) => {
    answer(groups([quarterly], [legal], [quorum], [progress, 0, 100]));
    renderHealth();
    const bar = within(await groupCard("Meetings")).getByRole("progressbar");
    expect(bar).toHaveAttribute("data-tone", tone);
    expect(bar.querySelector("[data-slot=progress-indicator]")).toHaveClass(indicatorClass);
  });

  it("leads each Manage button to the page of its group's first rule, or home when the group has none", async () => {
    answer(groups([quarterly], [quorum, legal], []));
    renderHealth();
    expect(within(await groupCard("Meetings")).getByRole("link", { name: "Manage Meetings" })).toHaveAttribute("href", "/meetings");
    // The first item's category decides, not the group's name.
    expect(within(await groupCard("Documents")).getByRole("link", { name: "Manage Documents" })).toHaveAttribute("href", "/resolutions");
    expect(within(await groupCard("Resolutions")).getByRole("link", { name: "Manage Resolutions" })).toHaveAttribute("href", "/");
  });

  it("on its own, keeps the three group cards in place, marked busy, until the verdicts arrive", async () => {
    let release!: (body: ComplianceGroup[]) => void;
    answer(new Promise((resolve) => (release = resolve)));
    renderHealth();
    const panel = await screen.findByRole("region", { name: "Compliance Health" });
    const list = within(panel).getAllByRole("list")[0]!;
    expect(list).toHaveAttribute("aria-busy", "true");
    for (const name of ["Meetings", "Documents", "Resolutions"]) {
      const card = within(panel).getByRole("heading", { level: 3, name }).closest("li") as HTMLElement;
      expect(within(card).getByText("Checking…")).toBeInTheDocument();
      // A placeholder is never read out as a score of 0.
      expect(within(card).queryByRole("progressbar")).not.toBeInTheDocument();
      expect(within(card).queryByRole("link", { name: /Manage/ })).not.toBeInTheDocument();
    }
    release(groups([quarterly], [legal], [quorum], [0, 0, 100]));
    expect(await within(panel).findByRole("progressbar", { name: "Resolutions compliance" })).toHaveAttribute("aria-valuenow", "100");
    expect(list).not.toHaveAttribute("aria-busy");
  });

  it("shows the dashboard's placeholder, never a score of 0, until the verdicts arrive, then every panel at once", async () => {
    let release!: (body: ComplianceGroup[]) => void;
    answer(new Promise((resolve) => (release = resolve)));
    const { queryClient } = renderApp({ path: "/", signedInAs: me });
    expect(await screen.findByRole("status", { name: "Loading dashboard" })).toBeInTheDocument();
    // The other panels' reads have answered, but none is shown before the verdicts: none would be pushed down.
    const [, ...otherReads] = dashboardFirstReads(3);
    await waitFor(() =>
      expect(otherReads.map((read) => queryClient.getQueryState(read.queryKey)?.status)).toEqual(["success", "success", "success"]),
    );
    // Lets the dashboard render what those answers changed before looking.
    await act(async () => undefined);
    for (const name of [
      "Compliance Reminders",
      "Pending Resolutions",
      "Upcoming Meetings",
      "Recent Documents",
      "Quick Actions",
      "Compliance Health",
    ]) {
      expect(screen.queryByRole("region", { name })).not.toBeInTheDocument();
    }
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();

    release(groups([quarterly], [legal], [quorum], [0, 0, 100]));
    const panel = await screen.findByRole("region", { name: "Compliance Health" });
    expect(within(panel).getByRole("progressbar", { name: "Resolutions compliance" })).toHaveAttribute("aria-valuenow", "100");
    expect(screen.queryByRole("status", { name: "Loading dashboard" })).not.toBeInTheDocument();
    for (const name of ["Compliance Reminders", "Pending Resolutions", "Upcoming Meetings", "Recent Documents", "Quick Actions"]) {
      expect(screen.getByRole("region", { name })).toBeInTheDocument();
    }
  });
});

describe("Compliance Reminders", () => {
  it("lists what is overdue or falls due within the window, soonest first, with real dates", async () => {
    answer(groups([quarterly, agm], [legal, financials], [quorum]));
    renderApp({ path: "/", signedInAs: me });
    const panel = await screen.findByRole("region", { name: "Compliance Reminders" });
    const headings = await within(panel).findAllByRole("heading", { level: 3 });
    // No date sorts first; financial statements fall due beyond the window; a completed rule is no reminder.
    expect(headings.map((heading) => heading.textContent)).toEqual([
      "Legal documents on file",
      "Quarterly board meeting",
      "Annual General Meeting Due",
    ]);
    expect(within(panel).getByText("Was due March 31, 2026")).toBeInTheDocument();
    expect(within(panel).getByText("The Annual General Meeting is due before July 15, 2026.")).toBeInTheDocument();
    expect(within(panel).queryByText("Financial statements")).not.toBeInTheDocument();
  });

  it("opens the Schedule meeting modal as the AGM, titled for the year it falls due", async () => {
    // December 2026: the AGM falls due next year, and the title says so.
    vi.setSystemTime(new Date("2026-12-01T09:00:00.000Z"));
    answer(groups([{ ...agm, dueDate: "2027-01-20T00:00:00.000Z" }]));
    const { user } = renderApp({ path: "/", signedInAs: me });
    const panel = await screen.findByRole("region", { name: "Compliance Reminders" });
    expect(await within(panel).findByText("The Annual General Meeting is due before January 20, 2027.")).toBeInTheDocument();

    await user.click(within(panel).getByRole("button", { name: "Schedule AGM" }));
    const dialog = await screen.findByRole("dialog", { name: "Schedule Annual General Meeting" });
    expect(within(dialog).getByLabelText("Meeting title")).toHaveValue("Annual General Meeting 2027");

    // New Meeting still opens the ordinary modal, with an empty title.
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await user.click(screen.getByRole("button", { name: "New Meeting" }));
    const ordinary = await screen.findByRole("dialog", { name: "Schedule New Board Meeting" });
    expect(within(ordinary).getByLabelText("Meeting title")).toHaveValue("");
  });

  it("shows an observer the AGM reminder without the button to schedule it", async () => {
    answer(groups([agm]));
    renderApp({ path: "/", signedInAs: observer });
    const panel = await screen.findByRole("region", { name: "Compliance Reminders" });
    expect(await within(panel).findByRole("heading", { name: "Annual General Meeting Due" })).toBeInTheDocument();
    expect(within(panel).queryByRole("button", { name: "Schedule AGM" })).not.toBeInTheDocument();
  });

  it("says so when nothing is due", async () => {
    answer(
      groups(
        [item({ id: complianceRuleIds.quarterlyBoardMeeting, status: "completed", dueDate: "2026-06-30T00:00:00.000Z" })],
        [financials],
      ),
    );
    renderApp({ path: "/", signedInAs: me });
    const panel = await screen.findByRole("region", { name: "Compliance Reminders" });
    expect(await within(panel).findByText("Nothing is due: every compliance check is on track.")).toBeInTheDocument();
  });

  it("says so when the verdicts could not be loaded", async () => {
    server.use(handle(complianceApi.getCompliance, () => apiError(500, "Internal Server Error"), { params: { companyId: 3 } }));
    renderApp({ path: "/", signedInAs: me });
    expect(await screen.findByText("The compliance reminders could not be loaded.")).toBeInTheDocument();
    expect(screen.getByText("The compliance health could not be loaded.")).toBeInTheDocument();
  });
});
