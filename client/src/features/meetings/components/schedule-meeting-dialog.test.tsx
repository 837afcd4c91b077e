import { screen, waitFor, within } from "@testing-library/react";
import * as accountApi from "@shared/api/account";
import * as documentsApi from "@shared/api/documents";
import { preferenceDefaults } from "@shared/preferences";
import { DRAFT_STORAGE_PREFIX } from "@/lib/use-form-draft";
import { apiError, handle } from "@/testing/handle";
import { buildMeetingDocument } from "@/testing/meeting-fixtures";
import { openScheduleModal, runOnScheduleClock, serveScheduleData } from "@/testing/schedule-fixtures";
import { server } from "@/testing/server";
import { findToast, findToastBehindModal } from "@/testing/toasts";

runOnScheduleClock();

describe("Schedule meeting modal", () => {
  it("opens with its defaults: date today, time now, a virtual location, notifications on, the members to choose from", async () => {
    serveScheduleData();
    const { dialog } = await openScheduleModal();
    expect(within(dialog).getByLabelText("Meeting title")).toHaveValue("");
    expect(within(dialog).getByLabelText("Date")).toHaveValue("2026-03-14");
    expect(within(dialog).getByLabelText("Time")).toHaveValue("15:09");
    expect(within(dialog).getByLabelText("Location")).toHaveValue("Virtual (Zoom)");
    const agenda = within(dialog).getByLabelText("Agenda");
    expect(agenda).toHaveValue("");
    expect(agenda).toHaveAttribute("rows", "4");
    expect(within(dialog).getByRole("checkbox", { name: "Send notifications to participants" })).toBeChecked();

    const participants = within(dialog).getByRole("group", { name: "Participants" });
    const boxes = within(participants).getAllByRole("checkbox");
    expect(boxes.map((box) => box.getAttribute("aria-checked"))).toEqual(["false", "false", "false"]);
    expect(within(participants).getByText("Founder / Admin")).toBeInTheDocument();
    expect(within(participants).getByText("Observer")).toBeInTheDocument();
    // The list scrolls past 12rem.
    expect(participants).toHaveClass("max-h-48", "overflow-y-auto");
    expect(within(dialog).getByRole("button", { name: "Schedule Meeting" })).toBeEnabled();
  });

  it("starts afresh on each opening: what was typed is gone and the time is the new now", async () => {
    serveScheduleData();
    const { dialog, user } = await openScheduleModal();
    await user.type(within(dialog).getByLabelText("Meeting title"), "Q1 review");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    vi.setSystemTime(new Date("2026-03-14T20:41:00.000Z")); // 4:41 PM in New York
    await user.click(screen.getByRole("button", { name: "New Meeting" }));
    const again = await screen.findByRole("dialog", { name: "Schedule New Board Meeting" });
    expect(within(again).getByLabelText("Meeting title")).toHaveValue("");
    expect(within(again).getByLabelText("Time")).toHaveValue("16:41");
  });

  it("shows the form's messages on the invalid fields and sends nothing", async () => {
    let posted = false;
    serveScheduleData();
    server.use(handle(documentsApi.createDocument, () => ((posted = true), buildMeetingDocument({ companyId: 3 }))));
    const { dialog, user } = await openScheduleModal();
    await user.clear(within(dialog).getByLabelText("Date"));
    await user.clear(within(dialog).getByLabelText("Time"));
    await user.clear(within(dialog).getByLabelText("Location"));
    await user.click(within(dialog).getByRole("button", { name: "Schedule Meeting" }));

    for (const [label, message] of [
      ["Meeting title", "Meeting title is required"],
      ["Date", "Date is required"],
      ["Time", "Time is required"],
      ["Location", "Location is required"],
    ]) {
      const field = within(dialog).getByLabelText(label!);
      expect(field).toHaveAttribute("aria-invalid", "true");
      expect(field).toHaveAccessibleDescription(message!);
    }
    expect(posted).toBe(false);
  });

  it("schedules with the local date and time stored as UTC, closes, and refreshes the list", async () => {
    const state = serveScheduleData();
    let posted: Record<string, unknown> | undefined;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.use(
      handle(documentsApi.createDocument, async ({ body }) => {
        posted = body;
        await released;
        const created = buildMeetingDocument({
          id: 90,
          companyId: 3,
          title: "Q2 Board Meeting",
          date: "2026-04-02T13:30:00.000Z",
          participants: ["8", "9"],
        });
        state.documents = [created];
        return created;
      }),
    );
    const { dialog, user } = await openScheduleModal();
    expect(state.asked).toHaveLength(1);
    await user.type(within(dialog).getByLabelText("Meeting title"), "Q2 Board Meeting");
    const date = within(dialog).getByLabelText("Date");
    await user.clear(date);
    await user.type(date, "2026-04-02");
    const time = within(dialog).getByLabelText("Time");
    await user.clear(time);
    await user.type(time, "09:30");
    await user.click(within(dialog).getByRole("checkbox", { name: /Ann Admin/ }));
    await user.click(within(dialog).getByRole("checkbox", { name: /Obi Observer/ }));
    await user.type(within(dialog).getByLabelText("Agenda"), "1. Open");
    await user.click(within(dialog).getByRole("button", { name: "Schedule Meeting" }));

    expect(await within(dialog).findByRole("button", { name: "Scheduling..." })).toBeDisabled();
    release();
    const toast = await findToastBehindModal("Meeting scheduled");
    expect(within(toast).getByText("The board meeting has been successfully scheduled.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Schedule New Board Meeting" })).not.toBeInTheDocument());
    expect(await screen.findByRole("link", { name: /Q2 Board Meeting/ })).toHaveAttribute("href", "/meetings/90");
    expect(state.asked).toHaveLength(2);

    expect(posted).toMatchObject({
      name: "Meeting: Q2 Board Meeting",
      fileType: "application/json",
      category: "Meeting",
      companyId: 3,
      uploadedBy: 7,
      sendNotifications: true,
    });
    const content = JSON.parse(String(posted!.content));
    expect(posted!.fileSize).toBe(String(posted!.content).length);
    // 9:30 AM on April 2 in New York (daylight time, UTC-4) is 13:30 UTC; the meeting lasts two hours.
    expect(content).toEqual({
      type: "meeting",
      title: "Q2 Board Meeting",
      date: "2026-04-02T13:30:00.000Z",
      endDate: "2026-04-02T15:30:00.000Z",
      location: "Virtual (Zoom)",
      status: "pending",
      participants: ["8", "9"],
      agenda: "1. Open",
    });
  });

  it("toasts the server's message when scheduling fails, and stays open", async () => {
    serveScheduleData();
    server.use(
      handle(documentsApi.createDocument, () => apiError(400, { message: "Participants must be members of the company", errors: [] })),
    );
    const { dialog, user } = await openScheduleModal();
    await user.type(within(dialog).getByLabelText("Meeting title"), "Doomed");
    await user.click(within(dialog).getByRole("checkbox", { name: "Send notifications to participants" }));
    await user.click(within(dialog).getByRole("button", { name: "Schedule Meeting" }));
    const toast = await findToastBehindModal("Error");
    expect(within(toast).getByText("Participants must be members of the company")).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "Schedule New Board Meeting" })).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Schedule Meeting" })).toBeEnabled();
  });

  describe("Auto-save Drafts", () => {
    const storedDrafts = () => Object.keys(window.localStorage).filter((key) => key.startsWith(DRAFT_STORAGE_PREFIX));

    async function typeAndCancel(dialog: HTMLElement, user: Awaited<ReturnType<typeof openScheduleModal>>["user"]) {
      await user.type(within(dialog).getByLabelText("Meeting title"), "Q1 review");
      await user.type(within(dialog).getByLabelText("Agenda"), "1. Budget");
      await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
      await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    }

    async function reopen(user: Awaited<ReturnType<typeof openScheduleModal>>["user"]) {
      await user.click(screen.getByRole("button", { name: "New Meeting" }));
      return screen.findByRole("dialog", { name: "Schedule New Board Meeting" });
    }

    it("keeps an unsent meeting and offers it back on the next opening", async () => {
      serveScheduleData();
      const { dialog, user } = await openScheduleModal();
      expect(within(dialog).queryByText(/unsent draft/)).not.toBeInTheDocument();
      await typeAndCancel(dialog, user);
      expect(storedDrafts()).toEqual([`${DRAFT_STORAGE_PREFIX}meeting:new:7:3`]);

      const again = await reopen(user);
      expect(within(again).getByRole("status")).toHaveTextContent("You have an unsent draft from less than a minute ago.");
      expect(within(again).getByLabelText("Meeting title")).toHaveValue("");
      await user.click(within(again).getByRole("button", { name: "Restore draft" }));
      expect(within(again).getByLabelText("Meeting title")).toHaveValue("Q1 review");
      expect(within(again).getByLabelText("Agenda")).toHaveValue("1. Budget");
      expect(within(again).queryByText(/unsent draft/)).not.toBeInTheDocument();
    });

    it("forgets a discarded draft", async () => {
      serveScheduleData();
      const { dialog, user } = await openScheduleModal();
      await typeAndCancel(dialog, user);
      const again = await reopen(user);
      await user.click(within(again).getByRole("button", { name: "Discard" }));
      expect(within(again).queryByText(/unsent draft/)).not.toBeInTheDocument();
      expect(storedDrafts()).toEqual([]);
    });

    it("forgets the draft once the meeting is scheduled", async () => {
      serveScheduleData();
      server.use(
        handle(documentsApi.createDocument, () =>
          buildMeetingDocument({ id: 91, companyId: 3, title: "Q1 review", date: "2026-03-20T13:30:00.000Z" }),
        ),
      );
      const { dialog, user } = await openScheduleModal();
      await user.type(within(dialog).getByLabelText("Meeting title"), "Q1 review");
      await user.click(within(dialog).getByRole("button", { name: "Schedule Meeting" }));
      await findToast("Meeting scheduled");
      await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
      expect(storedDrafts()).toEqual([]);
      const again = await reopen(user);
      expect(within(again).queryByText(/unsent draft/)).not.toBeInTheDocument();
    });

    it("keeps nothing when the user has switched Auto-save Drafts off", async () => {
      serveScheduleData();
      server.use(handle(accountApi.getPreferences, () => ({ ...preferenceDefaults, autoSaveDrafts: false }), { params: { id: 7 } }));
      const { dialog, user } = await openScheduleModal();
      await typeAndCancel(dialog, user);
      expect(storedDrafts()).toEqual([]);
      const again = await reopen(user);
      expect(within(again).queryByText(/unsent draft/)).not.toBeInTheDocument();
    });
  });
});
