import { waitFor, within } from "@testing-library/react";
import * as meetingsApi from "@shared/api/meetings";
import { apiError, handle } from "@/testing/handle";
import { openScheduleModal, runOnScheduleClock, serveScheduleData } from "@/testing/schedule-fixtures";
import { server } from "@/testing/server";
import { findToastBehindModal } from "@/testing/toasts";
import { AGENDA_FAILED_TEXT, AGENDA_FROM_AI_TEXT, AGENDA_FROM_TEMPLATE_TEXT } from "@/features/meetings/components/schedule-meeting-dialog";

runOnScheduleClock();

describe("Schedule meeting modal: an agenda generated for it", () => {
  it("asks for a title before generating an agenda", async () => {
    let drafted = false;
    serveScheduleData();
    server.use(handle(meetingsApi.createMeetingDraft, () => ((drafted = true), { id: 1 })));
    const { dialog, user } = await openScheduleModal();
    await user.click(within(dialog).getByRole("button", { name: "Generate with AI" }));
    expect(await within(dialog).findByText("Please provide a meeting title first")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Meeting title")).toHaveAttribute("aria-invalid", "true");
    expect(drafted).toBe(false);
  });

  it("makes a draft, generates the agenda, writes it as a numbered list and says it came from AI", async () => {
    serveScheduleData();
    let draftBody: unknown;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.use(
      handle(meetingsApi.createMeetingDraft, ({ body }) => {
        draftBody = body;
        return { id: 55 };
      }),
      handle(
        meetingsApi.generateAgenda,
        async () => {
          await released;
          return {
            source: "ai",
            items: [
              { title: "Call to order", duration: 5, description: "Confirm quorum." },
              { title: "Approve the budget", duration: 30, description: "Vote on the 2026 budget." },
              { title: "Close", duration: 5, description: "Next meeting date." },
            ],
          };
        },
        { params: { id: 55 } },
      ),
    );
    const { dialog, user } = await openScheduleModal();
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
    serveScheduleData();
    server.use(
      handle(meetingsApi.createMeetingDraft, () => ({ id: 56 })),
      handle(
        meetingsApi.generateAgenda,
        () => ({
          source: "template",
          items: [
            { title: "Call to order and quorum", duration: 5, description: "Open." },
            { title: "Any other business", duration: 10, description: "" },
            { title: "Close of meeting", duration: 5, description: "Close." },
          ],
        }),
        { params: { id: 56 } },
      ),
    );
    const { dialog, user } = await openScheduleModal();
    await user.type(within(dialog).getByLabelText("Meeting title"), "Strategy");
    await user.click(within(dialog).getByRole("button", { name: "Generate with AI" }));
    const toast = await findToastBehindModal("Agenda generated");
    expect(within(toast).getByText(AGENDA_FROM_TEMPLATE_TEXT)).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Agenda")).toHaveValue(
      "1. Call to order and quorum (5 min)\nOpen.\n\n2. Any other business (10 min)\n\n3. Close of meeting (5 min)\nClose.",
    );
  });

  it("toasts the failure text when generation fails, and keeps what was typed", async () => {
    serveScheduleData();
    server.use(
      handle(meetingsApi.createMeetingDraft, () => ({ id: 57 })),
      handle(meetingsApi.generateAgenda, () => apiError(502, "The AI service answered with an error (500)"), { params: { id: 57 } }),
    );
    const { dialog, user } = await openScheduleModal();
    await user.type(within(dialog).getByLabelText("Meeting title"), "Strategy");
    await user.type(within(dialog).getByLabelText("Agenda"), "My own items");
    await user.click(within(dialog).getByRole("button", { name: "Generate with AI" }));
    const toast = await findToastBehindModal("Error");
    expect(within(toast).getByText(AGENDA_FAILED_TEXT)).toBeInTheDocument();
    expect(toast).toHaveClass("destructive");
    expect(within(dialog).getByLabelText("Agenda")).toHaveValue("My own items");
  });
});
