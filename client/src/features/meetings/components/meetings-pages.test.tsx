import { act, screen, waitFor, within } from "@testing-library/react";
import * as companiesApi from "@shared/api/companies";
import * as documentsApi from "@shared/api/documents";
import * as meetingsApi from "@shared/api/meetings";
import type { UpcomingMeeting } from "@shared/meetings";
import { apiUrl } from "@/lib/api-client";
import { freezeDateAt } from "@/testing/clock";
import { buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import {
  buildAgendaItem,
  buildFileDocument,
  buildUpcomingMeeting,
  buildMeetingDocument,
  buildMember,
  serveDocuments,
  serveMeetingPage,
} from "@/testing/meeting-fixtures";

const me = buildUser({ id: 7, companyId: 3 });
const now = new Date("2026-06-01T09:00:00.000Z");
const minutes = (n: number) => new Date(now.getTime() + n * 60_000).toISOString();

freezeDateAt(now);

describe("/meetings", () => {
  it("splits the company's meetings at now: Upcoming soonest first, Past (and cancelled) most recent first; files are not meetings", async () => {
    const { asked } = serveDocuments([
      buildMeetingDocument({ id: 1, title: "Just started", date: minutes(0), status: "confirmed" }),
      buildMeetingDocument({ id: 2, title: "In a minute", date: minutes(1), status: "confirmed", participants: ["7", "8"] }),
      buildMeetingDocument({ id: 3, title: "Next month", date: minutes(60 * 24 * 30), status: "cancelled" }),
      buildMeetingDocument({ id: 4, title: "Last week", date: minutes(-60 * 24 * 7) }),
      buildMeetingDocument({ id: 5, title: "Tomorrow", date: minutes(60 * 24) }),
      buildFileDocument({ id: 6, name: "Budget 2026.pdf" }),
    ]);
    const { user } = renderApp({ path: "/meetings", signedInAs: me });
    expect(await screen.findByRole("heading", { level: 1, name: "Board Meetings" })).toBeInTheDocument();

    const upcomingPanel = await screen.findByRole("tabpanel", { name: "Upcoming" });
    const upcoming = await within(upcomingPanel).findAllByRole("link");
    // A cancelled meeting will not take place: it is not upcoming, whatever its date.
    expect(upcoming.map((link) => link.getAttribute("href"))).toEqual(["/meetings/2", "/meetings/5"]);
    expect(within(upcoming[0]!).getByText("Confirmed")).toBeInTheDocument();
    expect(within(upcoming[0]!).getByText("2 participants")).toBeInTheDocument();
    expect(within(upcoming[1]!).getByText("Pending")).toBeInTheDocument();
    expect(screen.queryByText("Budget 2026.pdf")).not.toBeInTheDocument();
    // The page asks the server for the meetings alone, never for the whole library.
    expect(asked).toEqual(["Meeting"]);

    await user.click(screen.getByRole("tab", { name: "Past" }));
    const pastPanel = await screen.findByRole("tabpanel", { name: "Past" });
    const past = within(pastPanel).getAllByRole("link");
    expect(past.map((link) => link.getAttribute("href"))).toEqual(["/meetings/3", "/meetings/1", "/meetings/4"]);
    expect(within(past[0]!).getByText("Cancelled")).toBeInTheDocument();
    for (const row of past.slice(1)) expect(within(row).getByText("Completed")).toBeInTheDocument();
  });

  it("searches titles case-insensitively", async () => {
    serveDocuments([
      buildMeetingDocument({ id: 11, title: "Q3 Board Meeting", date: minutes(60) }),
      buildMeetingDocument({ id: 12, title: "Audit committee", date: minutes(120) }),
    ]);
    const { user } = renderApp({ path: "/meetings", signedInAs: me });
    const panel = await screen.findByRole("tabpanel", { name: "Upcoming" });
    await within(panel).findByText("Audit committee");
    await user.type(screen.getByPlaceholderText("Search meetings..."), "BOARD");
    await waitFor(() => expect(within(panel).queryByText("Audit committee")).not.toBeInTheDocument());
    expect(within(panel).getByText("Q3 Board Meeting")).toBeInTheDocument();
    await user.clear(screen.getByPlaceholderText("Search meetings..."));
    await user.type(screen.getByPlaceholderText("Search meetings..."), "nothing like it");
    expect(await within(panel).findByText("No upcoming meetings match your search.")).toBeInTheDocument();
  });
});

describe("/meetings/:id", () => {
  it("shows the meeting, its agenda, and a Join link when the location is a URL", async () => {
    serveMeetingPage({
      meeting: buildMeetingDocument({
        id: 21,
        title: "Q3 Board Meeting",
        date: "2026-06-10T14:00:00.000Z",
        location: "https://zoom.us/j/12345",
        status: "confirmed",
        participants: ["7", "8", "9"],
        agenda: "1. Call to order (5 min)\nConfirm quorum.\n\n2. Close (5 min)",
      }),
      items: [
        buildAgendaItem({
          id: 1,
          title: "Call to order",
          durationMinutes: 5,
          description: "Confirm quorum.",
          startsAt: "2026-06-10T14:00:00.000Z",
        }),
        buildAgendaItem({ id: 2, title: "Close", durationMinutes: 5, presenterId: 8, startsAt: "2026-06-10T14:05:00.000Z" }),
      ],
      members: [buildMember({ id: 7 }), buildMember({ id: 8, firstName: "Grace", lastName: "Hopper" })],
    });
    const { user } = renderApp({ path: "/meetings/21", signedInAs: me });
    expect(await screen.findByRole("heading", { level: 1, name: "Q3 Board Meeting" })).toBeInTheDocument();
    expect(screen.getByText("Confirmed")).toBeInTheDocument();
    expect(screen.getByText("June 10, 2026")).toBeInTheDocument();
    expect(screen.getByText("2:00 PM - 4:00 PM")).toBeInTheDocument();
    expect(screen.getByText("3 attendees")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Meetings" })).toHaveAttribute("href", "/meetings");
    const join = screen.getByRole("link", { name: "Join Meeting" });
    expect(join).toHaveAttribute("href", "https://zoom.us/j/12345");
    expect(join).toHaveAttribute("target", "_blank");
    expect(join).toHaveAttribute("rel", "noopener noreferrer");

    await user.click(screen.getByRole("button", { name: "View Agenda" }));
    const agenda = await screen.findByRole("dialog", { name: "Agenda" });
    const rows = within(agenda).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual(["1. Call to order (5 min)2:00 PM", "2. Close (5 min)2:05 PM · Grace Hopper"]);
  });

  it("shows the meeting's own agenda text in View Agenda when its items cannot be read", async () => {
    serveMeetingPage({ meeting: buildMeetingDocument({ id: 24, agenda: "1. Call to order (5 min)\n\n2. Close (5 min)" }) });
    server.use(handle(meetingsApi.getAgenda, () => apiError(500, "Down"), { params: { id: 24 } }));
    const { user } = renderApp({ path: "/meetings/24", signedInAs: me });
    await user.click(await screen.findByRole("button", { name: "View Agenda" }));
    const agenda = await screen.findByRole("dialog", { name: "Agenda" });
    expect((await within(agenda).findByTestId("agenda-text")).textContent).toBe("1. Call to order (5 min)\n\n2. Close (5 min)");
  });

  it("offers the calendar file when the location is not a link", async () => {
    serveMeetingPage({
      meeting: buildMeetingDocument({ id: 22, title: "In person", location: "Board room", date: "2026-05-20T10:00:00.000Z" }),
    });
    const { user } = renderApp({ path: "/meetings/22", signedInAs: me });
    await user.click(await screen.findByRole("button", { name: "Join Meeting" }));
    const dialog = await screen.findByRole("dialog", { name: "Join Meeting" });
    expect(within(dialog).getByText(/Board room/)).toBeInTheDocument();
    expect(within(dialog).getByRole("link", { name: "Add to calendar (.ics)" })).toHaveAttribute(
      "href",
      apiUrl(meetingsApi.meetingCalendar, { params: { id: 22 } }),
    );
    // A past meeting shows Completed.
    expect(screen.getByText("Completed")).toBeInTheDocument();
  });

  it.each([
    ["a missing id", () => apiError(404, "Not found")],
    ["a document that is no meeting", () => buildFileDocument({ id: 23 })],
  ])("says 'Meeting not found' for %s", async (_label, answer) => {
    server.use(handle(documentsApi.getDocument, answer, { params: { id: 23 } }));
    const { user, currentPath } = renderApp({ path: "/meetings/23", signedInAs: me });
    expect(await screen.findByRole("heading", { level: 1, name: "Meeting not found" })).toBeInTheDocument();
    expect(screen.getByText("The meeting you're looking for doesn't exist.")).toBeInTheDocument();
    serveDocuments([]);
    await user.click(screen.getByRole("link", { name: "Back to Meetings" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Board Meetings" })).toBeInTheDocument();
    expect(currentPath()).toBe("/meetings");
  });
});

describe("dashboard", () => {
  function upcoming(list: UpcomingMeeting[] | Promise<UpcomingMeeting[]>) {
    server.use(handle(meetingsApi.upcomingMeetings, () => list, { params: { companyId: 3 } }));
  }

  it("lists upcoming meetings after loading placeholders, formatted 'MMMM d, yyyy • h:mm a - h:mm a'", async () => {
    let release!: (list: UpcomingMeeting[]) => void;
    upcoming(new Promise((resolve) => (release = resolve)));
    renderApp({ path: "/", signedInAs: me });
    // The dashboard's placeholder stands for its panels until their reads have answered.
    expect(await screen.findByRole("status", { name: "Loading dashboard" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Upcoming Meetings" })).not.toBeInTheDocument();
    release([
      buildUpcomingMeeting({
        id: 31,
        title: "Q3 Board Meeting",
        date: "2026-07-15T13:30:00.000Z",
        status: "confirmed",
        participantCount: 4,
        location: "HQ",
      }),
      buildUpcomingMeeting({ id: 32, title: "AGM", date: "2026-08-01T09:00:00.000Z", participantCount: 1 }),
    ]);
    const panel = (await screen.findByRole("heading", { name: "Upcoming Meetings" })).closest("[data-slot=card]") as HTMLElement;
    const first = await within(panel).findByRole("link", { name: /Q3 Board Meeting/ });
    expect(first).toHaveAttribute("href", "/meetings/31");
    // The machine runs in UTC.
    expect(within(first).getByText("July 15, 2026 • 1:30 PM - 3:30 PM")).toBeInTheDocument();
    expect(within(first).getByText("Confirmed")).toBeInTheDocument();
    expect(within(first).getByText("HQ")).toBeInTheDocument();
    expect(within(first).getByText("4 participants")).toBeInTheDocument();
    expect(within(panel).getByRole("link", { name: /AGM/ })).toHaveTextContent("1 participant");
    expect(within(panel).getByRole("link", { name: "View all" })).toHaveAttribute("href", "/meetings");
  });

  it("leaves out a listed meeting that has already started (the list is never refetched on its own), and a cancelled one", async () => {
    upcoming([
      buildUpcomingMeeting({ id: 41, title: "Started five minutes ago", date: minutes(-5) }),
      buildUpcomingMeeting({ id: 42, title: "In ten minutes", date: minutes(10) }),
      buildUpcomingMeeting({ id: 44, title: "Called off", date: minutes(20), status: "cancelled" }),
    ]);
    renderApp({ path: "/", signedInAs: me });
    const panel = (await screen.findByRole("heading", { name: "Upcoming Meetings" })).closest("[data-slot=card]") as HTMLElement;
    await within(panel).findByRole("link", { name: /In ten minutes/ });
    expect(within(panel).queryByText("Started five minutes ago")).not.toBeInTheDocument();
    expect(within(panel).queryByText("Called off")).not.toBeInTheDocument();
  });

  it("moves a meeting out of Upcoming once it starts while the dashboard is open", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    vi.setSystemTime(now);
    upcoming([buildUpcomingMeeting({ id: 43, title: "Starting in a minute", date: minutes(1) })]);
    renderApp({ path: "/", signedInAs: me });
    const panel = (await screen.findByRole("heading", { name: "Upcoming Meetings" })).closest("[data-slot=card]") as HTMLElement;
    await within(panel).findByRole("link", { name: /Starting in a minute/ });
    act(() => vi.advanceTimersByTime(60_000 + 1));
    expect(await within(panel).findByText("No upcoming meetings scheduled.")).toBeInTheDocument();
    expect(within(panel).queryByText("Starting in a minute")).not.toBeInTheDocument();
  });

  it("says when nothing is scheduled, and opens the Schedule meeting modal from Quick Actions", async () => {
    upcoming([]);
    server.use(handle(companiesApi.listMembers, () => [buildMember({ id: 7 })], { params: { companyId: 3 } }));
    const { user } = renderApp({ path: "/", signedInAs: me });
    expect(await screen.findByText("No upcoming meetings scheduled.")).toBeInTheDocument();
    expect(screen.getByText("Create a new board meeting with agenda")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Create resolution" })).toHaveAttribute("href", "/resolutions?new=1");
    expect(screen.getByRole("link", { name: "Upload document" })).toHaveAttribute("href", "/documents?upload=1");

    await user.click(screen.getByRole("button", { name: "Create meeting" }));
    expect(await screen.findByRole("dialog", { name: "Schedule New Board Meeting" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await user.click(screen.getByRole("button", { name: "New Meeting" }));
    expect(await screen.findByRole("dialog", { name: "Schedule New Board Meeting" })).toBeInTheDocument();
  });
});

describe("observers", () => {
  const observer = buildUser({ id: 8, companyId: 3, role: "observer" });

  it("are offered no way to schedule a meeting on the dashboard (the server would refuse them)", async () => {
    server.use(handle(meetingsApi.upcomingMeetings, () => [], { params: { companyId: 3 } }));
    renderApp({ path: "/", signedInAs: observer });
    expect(await screen.findByText("No upcoming meetings scheduled.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Create resolution" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "New Meeting" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Create meeting" })).not.toBeInTheDocument();
    expect(screen.queryByText("Schedule Meeting")).not.toBeInTheDocument();
  });

  it("see the meetings but no New Meeting button on /meetings", async () => {
    serveDocuments([buildMeetingDocument({ id: 51, title: "Q3 Board Meeting", date: minutes(60) })]);
    renderApp({ path: "/meetings", signedInAs: observer });
    const panel = await screen.findByRole("tabpanel", { name: "Upcoming" });
    expect(await within(panel).findByText("Q3 Board Meeting")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "New Meeting" })).not.toBeInTheDocument();
  });
});
