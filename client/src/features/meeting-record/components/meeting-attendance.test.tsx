import { screen, waitFor, within } from "@testing-library/react";
import * as meetingRecordApi from "@shared/api/meeting-record";
import type { CompanyRole } from "@shared/roles";
import { installFakeEventSource } from "@/testing/fake-event-source";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";
import { buildPageMeeting, captureBodies, type BodyAnswer, onStartedMeetingPage, serveMeetingPage } from "@/testing/meeting-fixtures";
import { boardAttendees, buildAttendance, buildMinutes, serveMeetingRecord } from "@/testing/record-fixtures";

const { as, started } = onStartedMeetingPage(91);
const attendance = buildAttendance({
  attendees: boardAttendees(["present", "remote", "apologies", "absent"]),
  guests: [{ name: "Pat Auditor" }],
  chairId: 1,
  quorum: { voting: 7, required: 4, present: 5, quorate: true, rule: "more than half of the eligible voters" },
});

const section = () => screen.findByRole("region", { name: "Attendance" });

/** Answers the started meeting's PUT of its attendance with `answer(body)`, recording the bodies. */
function recordAttendance(answer: BodyAnswer<typeof meetingRecordApi.recordAttendance>) {
  return captureBodies(meetingRecordApi.recordAttendance, answer, { params: { id: started.id } });
}

function open(role: CompanyRole, meeting = started) {
  serveMeetingPage({ meeting });
  serveMeetingRecord(meeting.id, { attendance });
  return renderApp({ path: `/meetings/${meeting.id}`, signedInAs: as(role) });
}

describe("the Attendance section", () => {
  it("says before the meeting's start that attendance comes once it starts, and asks for none", async () => {
    const upcoming = buildPageMeeting({ id: 92 });
    serveMeetingPage({ meeting: upcoming });
    let asked = 0;
    server.use(handle(meetingRecordApi.getAttendance, () => (asked++, attendance), { params: { id: 92 } }));
    renderApp({ path: "/meetings/92", signedInAs: as("founder") });
    expect(await within(await section()).findByText("Attendance can be recorded once the meeting starts.")).toBeInTheDocument();
    expect(asked).toBe(0);
  });

  it.each(["member", "observer"] as const)("is read-only for a %s, with the quorum line, the chair and the guests", async (role) => {
    open(role);
    const region = await section();
    expect(await within(region).findByText("Quorate: 5 of 7 voting members present")).toBeInTheDocument();
    const list = within(region).getByRole("list", { name: "Participants' attendance" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Ada LovelacePresent", "Grace HopperPresent by video", "Alan TuringApologies", "Olive ObserverAbsent"]);
    expect(within(region).getByText("Pat Auditor")).toBeInTheDocument();
    expect(within(region).getByText("Closed at").nextElementSibling).toHaveTextContent("Not recorded");
    expect(within(region).queryByRole("radio")).not.toBeInTheDocument();
    expect(within(region).queryByRole("button", { name: "Save attendance" })).not.toBeInTheDocument();
  });

  it("shows a recorded time of close read-only, in local time", async () => {
    serveMeetingPage({ meeting: started });
    serveMeetingRecord(started.id, { attendance: { ...attendance, closedAt: "2026-06-01T02:05:00.000Z" } });
    renderApp({ path: "/meetings/91", signedInAs: as("member") });
    const region = await section();
    const time = await within(region).findByText("10:05 PM");
    expect(time).toHaveAttribute("datetime", "2026-06-01T02:05:00.000Z");
    expect(time.closest("dd")?.previousElementSibling).toHaveTextContent("Closed at");
    expect(within(region).queryByLabelText("Closed at")).not.toBeInTheDocument();
  });

  it("says when a meeting was not quorate, with how many were needed", async () => {
    serveMeetingPage({ meeting: started });
    serveMeetingRecord(started.id, {
      attendance: buildAttendance({ quorum: { voting: 7, required: 4, present: 2, quorate: false, rule: "more than half" } }),
    });
    renderApp({ path: "/meetings/91", signedInAs: as("member") });
    expect(await within(await section()).findByText("Not quorate: 2 of 7 voting members present (4 needed)")).toBeInTheDocument();
  });

  it("lets the meeting's creator record it, even as a member", async () => {
    open("member", { ...started, uploadedBy: 7 });
    expect(await within(await section()).findByRole("button", { name: "Save attendance" })).toBeInTheDocument();
  });

  it("is read-only once the minutes are approved", async () => {
    serveMeetingPage({ meeting: started });
    serveMeetingRecord(started.id, {
      attendance,
      minutes: buildMinutes({ status: "approved", text: "Minutes", approvedAt: "2026-06-01T08:00:00.000Z" }),
    });
    renderApp({ path: "/meetings/91", signedInAs: as("founder") });
    const region = await section();
    expect(await within(region).findByRole("list", { name: "Participants' attendance" })).toBeInTheDocument();
    expect(within(region).queryByRole("button", { name: "Save attendance" })).not.toBeInTheDocument();
  });

  it("saves each participant's status, the guests and the chair in one body", async () => {
    const bodies = recordAttendance(() => ({ ...attendance, chairId: 2, quorum: { ...attendance.quorum, present: 4 } }));
    const { user } = open("founder");
    const region = await section();
    const grace = await within(region).findByRole("radiogroup", { name: /Grace Hopper/ });
    expect(within(grace).getByRole("radio", { name: "Present by video" })).toBeChecked();
    // Ada sends apologies after all: she can no longer chair, so the chair falls back to none until chosen.
    await user.click(within(within(region).getByRole("radiogroup", { name: /Ada Lovelace/ })).getByRole("radio", { name: "Apologies" }));
    await user.click(within(within(region).getByRole("radiogroup", { name: /Alan Turing/ })).getByRole("radio", { name: "Present" }));
    expect(within(region).getByRole("combobox", { name: "Chair" })).toHaveTextContent("No chair recorded");
    await user.click(within(region).getByRole("combobox", { name: "Chair" }));
    // Only those present are offered.
    expect(screen.getAllByRole("option").map((option) => option.textContent)).toEqual(["No chair recorded", "Grace Hopper", "Alan Turing"]);
    await user.click(screen.getByRole("option", { name: "Grace Hopper" }));
    await user.click(within(region).getByRole("button", { name: "Remove guest Pat Auditor" }));
    await user.type(within(region).getByLabelText("Guest name"), "Sam Counsel{Enter}");
    await user.click(within(region).getByRole("button", { name: "Save attendance" }));

    expect(await findToast("Attendance saved")).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        attendees: [
          { userId: 1, status: "apologies" },
          { userId: 2, status: "remote" },
          { userId: 3, status: "present" },
          { userId: 4, status: "absent" },
        ],
        guests: [{ name: "Sam Counsel" }],
        chairId: 2,
        closedAt: null,
      },
    ]);
    expect(await within(region).findByText("Quorate: 4 of 7 voting members present")).toBeInTheDocument();
  });

  it("refuses an empty guest name without sending anything", async () => {
    const bodies = recordAttendance(() => attendance);
    const { user } = open("admin");
    const region = await section();
    await user.click(await within(region).findByRole("button", { name: "Add guest" }));
    // Announced as it appears, and read with the field.
    expect(within(region).getByRole("alert")).toHaveTextContent("Guest name is required");
    expect(within(region).getByLabelText("Guest name")).toHaveAttribute("aria-invalid", "true");
    expect(within(region).getByLabelText("Guest name")).toHaveAccessibleDescription("Guest name is required");
    expect(bodies).toEqual([]);
  });

  it("moves the focus after removing a guest to the next guest, else to the guest name field", async () => {
    serveMeetingPage({ meeting: started });
    serveMeetingRecord(started.id, { attendance: { ...attendance, guests: [{ name: "Pat Auditor" }, { name: "Sam Counsel" }] } });
    const { user } = renderApp({ path: "/meetings/91", signedInAs: as("founder") });
    const region = await section();
    await user.click(await within(region).findByRole("button", { name: "Remove guest Pat Auditor" }));
    expect(within(region).getByRole("button", { name: "Remove guest Sam Counsel" })).toHaveFocus();
    await user.click(within(region).getByRole("button", { name: "Remove guest Sam Counsel" }));
    expect(within(region).getByLabelText("Guest name")).toHaveFocus();
    expect(within(region).getByText("No guests recorded.")).toBeInTheDocument();
  });

  it("sends the time of close on the meeting's day, in local time, or null once cleared", async () => {
    // The meeting started on 31 May at 10:00 in New York (14:00 UTC).
    const bodies = recordAttendance((body) => ({ ...attendance, closedAt: body.closedAt ?? null }));
    const { user } = open("founder");
    const region = await section();
    const closedAt = await within(region).findByLabelText("Closed at");
    expect(closedAt).toHaveValue("");
    await user.type(closedAt, "16:30");
    await user.click(within(region).getByRole("button", { name: "Save attendance" }));
    await waitFor(() => expect(bodies.map((body) => body.closedAt)).toEqual(["2026-05-31T20:30:00.000Z"]));
    // The form is drawn afresh from the answer.
    await waitFor(() => expect(within(region).getByLabelText("Closed at")).toHaveValue("16:30"));
    await user.clear(within(region).getByLabelText("Closed at"));
    await user.click(within(region).getByRole("button", { name: "Save attendance" }));
    await waitFor(() => expect(bodies.map((body) => body.closedAt)).toEqual(["2026-05-31T20:30:00.000Z", null]));
  });

  it("sends a recorded time of close back as it was when left untouched, past midnight too", async () => {
    // 00:30 on 1 June in New York: the meeting ran past midnight.
    const pastMidnight = "2026-06-01T04:30:00.000Z";
    serveMeetingPage({ meeting: started });
    serveMeetingRecord(started.id, { attendance: { ...attendance, closedAt: pastMidnight } });
    const bodies = recordAttendance(() => attendance);
    const { user } = renderApp({ path: "/meetings/91", signedInAs: as("founder") });
    const region = await section();
    expect(await within(region).findByLabelText("Closed at")).toHaveValue("00:30");
    await user.click(within(region).getByRole("button", { name: "Save attendance" }));
    await waitFor(() => expect(bodies.map((body) => body.closedAt)).toEqual([pastMidnight]));
  });

  it("shows the server's refusal of the time of close at its field", async () => {
    const message = "Closed at must be at or after the meeting's start";
    recordAttendance(() => apiError(400, { message: "Validation failed", errors: [{ path: "closedAt", message }] }));
    const { user } = open("founder");
    const region = await section();
    const closedAt = await within(region).findByLabelText("Closed at");
    await user.type(closedAt, "09:00");
    await user.click(within(region).getByRole("button", { name: "Save attendance" }));
    await waitFor(() => expect(closedAt).toHaveAttribute("aria-invalid", "true"));
    expect(closedAt).toHaveAccessibleDescription(expect.stringContaining(message));
    // Said once, at the field; the form's alert says the rest.
    expect(within(region).getAllByText(message)).toHaveLength(1);
    expect(within(region).getByRole("alert")).toHaveTextContent("Validation failed");
    expect(closedAt).toHaveValue("09:00");
  });

  it("shows the server's refusal (400) with its reasons, keeping what was chosen", async () => {
    recordAttendance(() =>
      apiError(400, { message: "Validation failed", errors: [{ path: "chairId", message: "The chair must be recorded present" }] }),
    );
    const { user } = open("founder");
    const region = await section();
    await user.click(within(await within(region).findByRole("radiogroup", { name: /Alan Turing/ })).getByRole("radio", { name: "Absent" }));
    await user.click(within(region).getByRole("button", { name: "Save attendance" }));
    const alert = await within(region).findByRole("alert");
    expect(alert).toHaveTextContent("Validation failed");
    expect(alert).toHaveTextContent("The chair must be recorded present");
    expect(within(within(region).getByRole("radiogroup", { name: /Alan Turing/ })).getByRole("radio", { name: "Absent" })).toBeChecked();
  });

  it("shows a conflict (409)", async () => {
    recordAttendance(() => apiError(409, "The minutes are approved"));
    const { user } = open("founder");
    await user.click(await within(await section()).findByRole("button", { name: "Save attendance" }));
    await waitFor(async () => expect(within(await section()).getByRole("alert")).toHaveTextContent("The minutes are approved"));
  });
});

describe("the Attendance section, live", () => {
  it("is asked for again when the meeting changes elsewhere (a live event)", async () => {
    const streams = installFakeEventSource();
    serveMeetingPage({ meeting: started });
    serveMeetingRecord(started.id, { attendance });
    let asked = 0;
    server.use(handle(meetingRecordApi.getAttendance, () => (asked++, attendance), { params: { id: 91 } }));
    renderApp({ path: "/meetings/91", signedInAs: as("member") });
    expect(await within(await section()).findByText("Quorate: 5 of 7 voting members present")).toBeInTheDocument();
    await waitFor(() => expect(streams.created()).toHaveLength(1));
    streams.latest().open();
    expect(asked).toBe(1);
    streams.latest().send("meeting", { meetingId: 91 });
    await waitFor(() => expect(asked).toBe(2));
  });
});
