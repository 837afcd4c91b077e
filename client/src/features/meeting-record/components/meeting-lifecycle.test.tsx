import { screen, waitFor, within } from "@testing-library/react";
import { HttpResponse } from "msw";
import * as documentsApi from "@shared/api/documents";
import * as meetingRecordApi from "@shared/api/meeting-record";
import type { CompanyRole } from "@shared/roles";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";
import { buildPageMeeting, captureBodies, pageUser, serveMeetingPage, runOnMeetingPageClock } from "@/testing/meeting-fixtures";

runOnMeetingPageClock();

const as = (role: CompanyRole) => pageUser(7, role);
const meeting = buildPageMeeting({ id: 90, location: "Board room", status: "pending" });

/** Answers the meeting's PATCH with the meeting changed as asked (or with `refusal`), recording the bodies. */
function capturePatch(refusal?: { status: number; message: string }) {
  const ofMeeting = { params: { id: meeting.id } };
  return captureBodies(
    meetingRecordApi.updateMeeting,
    (body) => {
      if (refusal) return apiError(refusal.status, refusal.message);
      const content = { ...JSON.parse(meeting.content!), ...body };
      const changed = { ...meeting, content: JSON.stringify(content) };
      // The page reads the meeting again afterwards: it answers the changed one from now on.
      server.use(handle(documentsApi.getDocument, () => changed, ofMeeting));
      return changed;
    },
    ofMeeting,
  );
}

const manage = () => screen.findByRole("group", { name: "Manage meeting" });

describe("confirming, rescheduling and cancelling", () => {
  it.each(["founder", "admin"] as const)("are offered to a %s", async (role) => {
    serveMeetingPage({ meeting });
    renderApp({ path: "/meetings/90", signedInAs: as(role) });
    const group = await manage();
    expect(within(group).getByRole("button", { name: "Confirm meeting" })).toBeInTheDocument();
    expect(within(group).getByRole("button", { name: "Reschedule" })).toBeInTheDocument();
    expect(within(group).getByRole("button", { name: "Cancel meeting" })).toBeInTheDocument();
  });

  it.each(["member", "observer"] as const)("are hidden from a %s (even the meeting's creator)", async (role) => {
    serveMeetingPage({ meeting: { ...meeting, uploadedBy: 7 } });
    renderApp({ path: "/meetings/90", signedInAs: as(role) });
    expect(await screen.findByRole("heading", { level: 1, name: "Q3 Board Meeting" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Download board pack" })).toBeInTheDocument();
    expect(screen.queryByRole("group", { name: "Manage meeting" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Confirm meeting" })).not.toBeInTheDocument();
  });

  it("confirms a pending meeting: the badge turns Confirmed and Confirm goes", async () => {
    serveMeetingPage({ meeting });
    const bodies = capturePatch();
    const { user } = renderApp({ path: "/meetings/90", signedInAs: as("founder") });
    expect(await screen.findByText("Pending")).toBeInTheDocument();
    await user.click(within(await manage()).getByRole("button", { name: "Confirm meeting" }));
    expect(await findToast("Meeting confirmed")).toBeInTheDocument();
    expect(bodies).toEqual([{ status: "confirmed" }]);
    expect(await screen.findByText("Confirmed")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Confirm meeting" })).not.toBeInTheDocument();
  });

  it("cancels after asking, and then offers nothing more", async () => {
    serveMeetingPage({ meeting });
    const bodies = capturePatch();
    const { user } = renderApp({ path: "/meetings/90", signedInAs: as("admin") });
    await user.click(within(await manage()).getByRole("button", { name: "Cancel meeting" }));
    const ask = await screen.findByRole("alertdialog", { name: "Cancel this meeting?" });
    // Keeping it sends nothing.
    await user.click(within(ask).getByRole("button", { name: "Keep meeting" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(bodies).toEqual([]);

    await user.click(within(await manage()).getByRole("button", { name: "Cancel meeting" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Cancel meeting" }));
    expect(await findToast("Meeting cancelled")).toBeInTheDocument();
    expect(bodies).toEqual([{ status: "cancelled" }]);
    expect(await screen.findByText("Cancelled")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("group", { name: "Manage meeting" })).not.toBeInTheDocument());
    // A cancelled meeting's agenda is not edited either.
    expect(screen.queryByRole("button", { name: "Add item" })).not.toBeInTheDocument();
  });

  it("shows a refusal (409) in a toast", async () => {
    serveMeetingPage({ meeting });
    capturePatch({ status: 409, message: "A past meeting cannot be confirmed" });
    const { user } = renderApp({ path: "/meetings/90", signedInAs: as("founder") });
    await user.click(within(await manage()).getByRole("button", { name: "Confirm meeting" }));
    expect(await findToast("The meeting was not changed")).toHaveTextContent("A past meeting cannot be confirmed");
    expect(screen.getByText("Pending")).toBeInTheDocument();
  });

  it("reschedules from the local date and time, two hours long, with the new place", async () => {
    serveMeetingPage({ meeting });
    const bodies = capturePatch();
    const { user } = renderApp({ path: "/meetings/90", signedInAs: as("founder") });
    await user.click(within(await manage()).getByRole("button", { name: "Reschedule" }));
    const dialog = await screen.findByRole("dialog", { name: "Reschedule meeting" });
    // It starts from the meeting as it is (10:00 in New York).
    expect(within(dialog).getByLabelText("Date")).toHaveValue("2026-06-10");
    expect(within(dialog).getByLabelText("Time")).toHaveValue("10:00");
    await user.clear(within(dialog).getByLabelText("Location"));
    await user.click(within(dialog).getByRole("button", { name: "Reschedule" }));
    expect(await within(dialog).findByText("Location is required")).toBeInTheDocument();
    expect(bodies).toEqual([]);

    await user.type(within(dialog).getByLabelText("Location"), "HQ, 4th floor");
    await user.clear(within(dialog).getByLabelText("Date"));
    await user.type(within(dialog).getByLabelText("Date"), "2026-06-20");
    await user.clear(within(dialog).getByLabelText("Time"));
    await user.type(within(dialog).getByLabelText("Time"), "09:30");
    await user.click(within(dialog).getByRole("button", { name: "Reschedule" }));
    expect(await findToast("Meeting rescheduled")).toBeInTheDocument();
    expect(bodies).toEqual([{ date: "2026-06-20T13:30:00.000Z", endDate: "2026-06-20T15:30:00.000Z", location: "HQ, 4th floor" }]);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(await screen.findByText("June 20, 2026")).toBeInTheDocument();
    expect(screen.getByText("9:30 AM - 11:30 AM")).toBeInTheDocument();
  });
});

describe("Download board pack", () => {
  let saved: { name: string; href: string }[];
  let blobs: Blob[];

  beforeEach(() => {
    saved = [];
    blobs = [];
    // jsdom has no object URLs and does not download: record what would be saved.
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        blobs.push(blob);
        return `blob:pack-${blobs.length}`;
      },
      revokeObjectURL: () => undefined,
    });
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.getAttribute("href") ?? "" });
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("says it is preparing the pack while the server builds it, then saves it under the server's file name", async () => {
    serveMeetingPage({ meeting });
    let release!: () => void;
    const built = new Promise<void>((resolve) => (release = resolve));
    const pdf = new TextEncoder().encode("%PDF-1.7\n…\n%%EOF");
    server.use(
      handle(
        meetingRecordApi.boardPack,
        async () => {
          await built;
          return new HttpResponse(pdf, {
            headers: {
              "Content-Type": "application/pdf",
              "Content-Disposition": `attachment; filename="Q3 Board Meeting - board pack.pdf"; filename*=UTF-8''Q3%20Board%20Meeting%20%E2%80%93%20board%20pack.pdf`,
            },
          });
        },
        { params: { id: 90 } },
      ),
    );
    const { user } = renderApp({ path: "/meetings/90", signedInAs: as("member") });
    await user.click(await screen.findByRole("button", { name: "Download board pack" }));
    const running = await screen.findByRole("button", { name: /Preparing board pack…/ });
    expect(running).toBeDisabled();
    release();
    expect(await screen.findByRole("button", { name: "Download board pack" })).toBeEnabled();
    expect(saved).toEqual([{ name: "Q3 Board Meeting – board pack.pdf", href: "blob:pack-1" }]);
    expect(await blobs[0]!.text()).toMatch(/^%PDF-/);
  });

  it("names the file after the meeting when the answer does not, and shows a failure in a toast", async () => {
    serveMeetingPage({ meeting });
    let fail = false;
    server.use(
      handle(
        meetingRecordApi.boardPack,
        () =>
          fail
            ? apiError(500, "A paper could not be read")
            : new HttpResponse(new TextEncoder().encode("%PDF-1.7"), { headers: { "Content-Type": "application/pdf" } }),
        { params: { id: 90 } },
      ),
    );
    const { user } = renderApp({ path: "/meetings/90", signedInAs: as("observer") });
    await user.click(await screen.findByRole("button", { name: "Download board pack" }));
    await waitFor(() => expect(saved).toEqual([{ name: "Q3 Board Meeting - board pack.pdf", href: "blob:pack-1" }]));

    fail = true;
    await user.click(await screen.findByRole("button", { name: "Download board pack" }));
    expect(await findToast("The board pack could not be downloaded")).toHaveTextContent("A paper could not be read");
    expect(saved).toHaveLength(1);
  });
});
