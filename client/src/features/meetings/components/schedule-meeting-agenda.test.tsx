import { screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import type { DocumentObject } from "@shared/documents";
import { buildUser } from "@/testing/factories";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToastBehindModal } from "@/testing/toasts";
import { runInTimeZone } from "@/testing/time-zone";
import { AGENDA_FAILED_TEXT, AGENDA_FROM_AI_TEXT, AGENDA_FROM_TEMPLATE_TEXT } from "@/features/meetings/components/schedule-meeting-dialog";
import { buildMember } from "@/testing/meeting-fixtures";

// New York, so "local time stored as UTC" is visible (the machine itself runs in UTC).
runInTimeZone("America/New_York");

const me = buildUser({ id: 7, companyId: 3, firstName: "Fay", lastName: "Founder" });
const members = [
  buildMember({ id: 7, firstName: "Fay", lastName: "Founder", role: "founder" }),
  buildMember({ id: 8, firstName: "Ann", lastName: "Admin", role: "admin" }),
  buildMember({ id: 9, firstName: "Obi", lastName: "Observer", role: "observer" }),
];

function companyData(documents: DocumentObject[] = []) {
  const state = { documents, listCalls: 0 };
  server.use(
    http.get("/api/documents", () => {
      state.listCalls += 1;
      return HttpResponse.json(state.documents);
    }),
    http.get("/api/companies/3/members", () => HttpResponse.json(members)),
  );
  return state;
}

async function openModal() {
  const view = renderApp({ path: "/meetings", signedInAs: me });
  await view.user.click(await screen.findByRole("button", { name: "New Meeting" }));
  const dialog = await screen.findByRole("dialog", { name: "Schedule New Board Meeting" });
  await within(dialog).findByRole("checkbox", { name: /Ann Admin/ });
  return { ...view, dialog };
}

describe("Schedule meeting modal: an agenda generated for it", () => {
  beforeEach(() => {
    // Only Date is faked: timers stay real for user-event and msw.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-14T19:09:30.000Z")); // 3:09 PM in New York
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks for a title before generating an agenda", async () => {
    let drafted = false;
    companyData();
    server.use(http.post("/api/new-meeting", () => ((drafted = true), HttpResponse.json({ id: 1 }, { status: 201 }))));
    const { dialog, user } = await openModal();
    await user.click(within(dialog).getByRole("button", { name: "Generate with AI" }));
    expect(await within(dialog).findByText("Please provide a meeting title first")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Meeting title")).toHaveAttribute("aria-invalid", "true");
    expect(drafted).toBe(false);
  });

  it("makes a draft, generates the agenda, writes it as a numbered list and says it came from AI", async () => {
    companyData();
    let draftBody: unknown;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post("/api/new-meeting", async ({ request }) => {
        draftBody = await request.json();
        return HttpResponse.json({ id: 55 }, { status: 201 });
      }),
      http.post("/api/meetings/55/generate-agenda", async () => {
        await released;
        return HttpResponse.json({
          source: "ai",
          items: [
            { title: "Call to order", duration: 5, description: "Confirm quorum." },
            { title: "Approve the budget", duration: 30, description: "Vote on the 2026 budget." },
            { title: "Close", duration: 5, description: "Next meeting date." },
          ],
        });
      }),
    );
    const { dialog, user } = await openModal();
    await user.type(within(dialog).getByLabelText("Meeting title"), "Q1 Board Meeting");
    await user.click(within(dialog).getByRole("button", { name: "Generate with AI" }));

    expect(await within(dialog).findByRole("button", { name: "Generating..." })).toBeDisabled();
    release();
    await waitFor(() =>
      expect(within(dialog).getByLabelText("Agenda")).toHaveValue(
        "1. Call to order (5 min)\nConfirm quorum.\n\n2. Approve the budget (30 min)\nVote on the 2026 budget.\n\n3. Close (5 min)\nNext meeting date.",
      ),
    );
    const toast = await findToastBehindModal("Agenda generated");
    expect(within(toast).getByText(AGENDA_FROM_AI_TEXT)).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Generate with AI" })).toBeEnabled();
    expect(draftBody).toEqual({
      title: "Q1 Board Meeting",
      date: "2026-03-14T19:09:00.000Z",
      endDate: "2026-03-14T21:09:00.000Z",
      location: "Virtual (Zoom)",
      status: "draft",
      companyId: 3,
      createdBy: 7,
    });
  });

  it("says so when the agenda came from the standard template", async () => {
    companyData();
    server.use(
      http.post("/api/new-meeting", () => HttpResponse.json({ id: 56 }, { status: 201 })),
      http.post("/api/meetings/56/generate-agenda", () =>
        HttpResponse.json({
          source: "template",
          items: [
            { title: "Call to order and quorum", duration: 5, description: "Open." },
            { title: "Any other business", duration: 10, description: "" },
            { title: "Close of meeting", duration: 5, description: "Close." },
          ],
        }),
      ),
    );
    const { dialog, user } = await openModal();
    await user.type(within(dialog).getByLabelText("Meeting title"), "Strategy");
    await user.click(within(dialog).getByRole("button", { name: "Generate with AI" }));
    const toast = await findToastBehindModal("Agenda generated");
    expect(within(toast).getByText(AGENDA_FROM_TEMPLATE_TEXT)).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Agenda")).toHaveValue(
      "1. Call to order and quorum (5 min)\nOpen.\n\n2. Any other business (10 min)\n\n3. Close of meeting (5 min)\nClose.",
    );
  });

  it("toasts the failure text when generation fails, and keeps what was typed", async () => {
    companyData();
    server.use(
      http.post("/api/new-meeting", () => HttpResponse.json({ id: 57 }, { status: 201 })),
      http.post("/api/meetings/57/generate-agenda", () =>
        HttpResponse.json({ message: "The AI service answered with an error (500)" }, { status: 502 }),
      ),
    );
    const { dialog, user } = await openModal();
    await user.type(within(dialog).getByLabelText("Meeting title"), "Strategy");
    await user.type(within(dialog).getByLabelText("Agenda"), "My own items");
    await user.click(within(dialog).getByRole("button", { name: "Generate with AI" }));
    const toast = await findToastBehindModal("Error");
    expect(within(toast).getByText(AGENDA_FAILED_TEXT)).toBeInTheDocument();
    expect(toast).toHaveClass("destructive");
    expect(within(dialog).getByLabelText("Agenda")).toHaveValue("My own items");
  });
});
