import { screen, waitFor, within } from "@testing-library/react";
import * as meetingRecordApi from "@shared/api/meeting-record";
import * as meetingsApi from "@shared/api/meetings";
import * as resolutionsApi from "@shared/api/resolutions";
import type { MeetingVoteInput, Minutes } from "@shared/meeting-record";
import type { ResolutionDetails } from "@shared/resolutions";
import type { CompanyRole } from "@shared/roles";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToastBehindModal } from "@/testing/toasts";
import {
  buildAgendaItem,
  buildPageMeeting,
  buildResolutionRow,
  captureBodies,
  pageCompanyId,
  onStartedMeetingPage,
  serveMeetingPage,
  type BodyAnswer,
} from "@/testing/meeting-fixtures";
import { boardAttendees, buildAttendance, buildMinutes, serveMeetingRecord } from "@/testing/record-fixtures";

const { as, started } = onStartedMeetingPage(93);
const budget = buildResolutionRow({ id: 501, title: "Approve the budget", status: "pending" });
const auditor = buildResolutionRow({ id: 502, title: "Appoint the auditor", status: "approved" });
const item = buildAgendaItem({ title: "Finance", resolutionIds: [501, 502] });
const attendance = buildAttendance({
  attendees: boardAttendees(["present", "remote", "apologies", "present"]),
});

/** The budget as GET /api/resolutions/501 answers it: still pending, nobody recused unless told. */
function details(fields: Partial<ResolutionDetails> = {}): ResolutionDetails {
  return { ...budget, documents: [], voters: [], recusals: [], certificate: null, written: null, writtenCertificate: null, ...fields };
}

function decided(votes: MeetingVoteInput["votes"]): ResolutionDetails {
  const count = (choice: string) => votes.filter((vote) => vote.vote === choice).length;
  return details({
    status: "approved",
    decidedAt: "2026-06-01T09:00:00.000Z",
    voteCounts: { yes: count("yes"), no: count("no"), abstain: count("abstain") },
  });
}

/** Serves the page; counts how often the agenda and the resolutions are asked for. */
function open(role: CompanyRole, meeting = started, record: { resolution?: ResolutionDetails; minutes?: Minutes } = {}) {
  serveMeetingPage({ meeting, items: [item], resolutions: [budget, auditor] });
  serveMeetingRecord(meeting.id, { attendance, minutes: record.minutes });
  const asked = { agenda: 0, resolutions: 0 };
  server.use(
    handle(resolutionsApi.getResolution, () => record.resolution ?? details(), { params: { id: budget.id } }),
    handle(
      meetingsApi.getAgenda,
      () => {
        asked.agenda += 1;
        return { items: [item] };
      },
      { params: { id: meeting.id } },
    ),
    handle(
      resolutionsApi.listResolutions,
      () => {
        asked.resolutions += 1;
        return [budget, auditor];
      },
      { params: { companyId: pageCompanyId } },
    ),
  );
  return { ...renderApp({ path: `/meetings/${meeting.id}`, signedInAs: as(role) }), asked };
}

/** Answers the show of hands on the budget with `answer(body)`, recording the bodies. */
function captureVotes(answer: BodyAnswer<typeof meetingRecordApi.recordMeetingVote>) {
  return captureBodies(meetingRecordApi.recordMeetingVote, answer, { params: { id: budget.id } });
}

const agenda = () => screen.findByRole("region", { name: "Agenda" });
const handsButton = () => screen.queryByRole("button", { name: "Record show of hands on Approve the budget" });

describe("a show of hands on the agenda", () => {
  it("is offered to a keeper on a pending resolution only, once the meeting has started", async () => {
    open("admin");
    expect(await within(await agenda()).findByRole("button", { name: "Record show of hands on Approve the budget" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Record show of hands on Appoint the auditor" })).not.toBeInTheDocument();
  });

  it("is not offered to a member", async () => {
    open("member");
    expect(await within(await agenda()).findByText("Approve the budget")).toBeInTheDocument();
    expect(handsButton()).not.toBeInTheDocument();
  });

  it("is not offered on a pending resolution whose deadline has passed", async () => {
    // The page's clock reads 1 June, 09:00 UTC: one deadline passed an hour ago, the other is a day away.
    const lapsed = buildResolutionRow({ id: 501, title: "Approve the budget", status: "pending", deadline: "2026-06-01T08:00:00.000Z" });
    const lease = buildResolutionRow({ id: 503, title: "Renew the lease", status: "pending", deadline: "2026-06-02T09:00:00.000Z" });
    serveMeetingPage({ meeting: started, items: [{ ...item, resolutionIds: [501, 503] }], resolutions: [lapsed, lease] });
    serveMeetingRecord(started.id, { attendance });
    renderApp({ path: `/meetings/${started.id}`, signedInAs: as("founder") });
    expect(await within(await agenda()).findByRole("button", { name: "Record show of hands on Renew the lease" })).toBeInTheDocument();
    expect(handsButton()).not.toBeInTheDocument();
  });

  it("is not offered once the minutes are approved", async () => {
    open("founder", started, { minutes: buildMinutes({ status: "approved", text: "Minutes", approvedAt: "2026-06-01T08:00:00.000Z" }) });
    // The minutes' card reads what decides the offer: once it shows them approved, the agenda has settled.
    expect(await within(await screen.findByRole("region", { name: "Minutes" })).findByText(/Approved on/)).toBeInTheDocument();
    expect(within(await agenda()).getByText("Approve the budget")).toBeInTheDocument();
    expect(handsButton()).not.toBeInTheDocument();
  });

  it("is not offered before the meeting starts", async () => {
    const upcoming = buildPageMeeting({ id: 94 });
    serveMeetingPage({ meeting: upcoming, items: [item], resolutions: [budget, auditor] });
    renderApp({ path: "/meetings/94", signedInAs: as("founder") });
    expect(await within(await agenda()).findByText("Approve the budget")).toBeInTheDocument();
    expect(handsButton()).not.toBeInTheDocument();
  });

  it("lists the voting members present, sends the votes cast, says the outcome and refreshes the agenda and resolutions", async () => {
    const bodies = captureVotes((body) => decided(body.votes));
    const { user, asked } = open("founder");
    await user.click(await within(await agenda()).findByRole("button", { name: "Record show of hands on Approve the budget" }));
    const dialog = await screen.findByRole("dialog", { name: "Record show of hands" });
    const groups = await within(dialog).findAllByRole("radiogroup");
    // Present or by video, and entitled to vote: not the apologies, not the observer.
    expect(groups).toHaveLength(2);
    expect(within(dialog).getByRole("radiogroup", { name: "Ada Lovelace" })).toBeInTheDocument();
    expect(within(dialog).getByRole("radiogroup", { name: "Grace Hopper" })).toBeInTheDocument();
    expect(
      within(within(dialog).getByRole("radiogroup", { name: "Ada Lovelace" })).getByRole("radio", { name: "Not voting" }),
    ).toBeChecked();

    const agendaBefore = asked.agenda;
    const resolutionsBefore = asked.resolutions;
    await user.click(within(within(dialog).getByRole("radiogroup", { name: "Ada Lovelace" })).getByRole("radio", { name: "Yes" }));
    await user.click(within(within(dialog).getByRole("radiogroup", { name: "Grace Hopper" })).getByRole("radio", { name: "Abstain" }));
    await user.click(within(dialog).getByRole("button", { name: "Record votes" }));

    expect(await findToastBehindModal("Show of hands recorded")).toHaveTextContent("Approve the budget: Approved: 1 yes, 0 no, 1 abstain");
    expect(bodies).toEqual([
      {
        meetingId: 93,
        votes: [
          { userId: 1, vote: "yes" },
          { userId: 2, vote: "abstain" },
        ],
      },
    ]);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await waitFor(() => expect(asked.agenda).toBeGreaterThan(agendaBefore));
    await waitFor(() => expect(asked.resolutions).toBeGreaterThan(resolutionsBefore));
  });

  it("shows who declared a conflict as not voting, with no choice, and never sends their vote", async () => {
    const bodies = captureVotes((body) => decided(body.votes));
    const { user } = open("founder", started, {
      resolution: details({ recusals: [{ userId: 2, name: "Grace Hopper", reason: "Supplier's director" }] }),
    });
    await user.click(await within(await agenda()).findByRole("button", { name: "Record show of hands on Approve the budget" }));
    const dialog = await screen.findByRole("dialog", { name: "Record show of hands" });
    const grace = await within(dialog).findByRole("radiogroup", { name: "Grace Hopper" });
    expect(grace).toHaveAccessibleDescription("Declared a conflict");
    for (const radio of within(grace).getAllByRole("radio")) expect(radio).toBeDisabled();
    expect(within(grace).getByRole("radio", { name: "Not voting" })).toBeChecked();
    expect(within(dialog).getByRole("radiogroup", { name: "Ada Lovelace" })).not.toHaveAccessibleDescription();
    await user.click(within(grace).getByRole("radio", { name: "Yes" }));
    await user.click(within(within(dialog).getByRole("radiogroup", { name: "Ada Lovelace" })).getByRole("radio", { name: "No" }));
    await user.click(within(dialog).getByRole("button", { name: "Record votes" }));
    await waitFor(() => expect(bodies).toEqual([{ meetingId: 93, votes: [{ userId: 1, vote: "no" }] }]));
  });

  it("asks for at least one vote before sending", async () => {
    let sent = 0;
    server.use(handle(meetingRecordApi.recordMeetingVote, () => (sent++, details()), { params: { id: budget.id } }));
    const { user } = open("founder");
    await user.click(await within(await agenda()).findByRole("button", { name: "Record show of hands on Approve the budget" }));
    const dialog = await screen.findByRole("dialog", { name: "Record show of hands" });
    await user.click(await within(dialog).findByRole("button", { name: "Record votes" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent("Record at least one vote");
    expect(sent).toBe(0);
  });

  it("shows the server's refusal (400) and its reasons in the dialog, which stays open", async () => {
    captureVotes(() =>
      apiError(400, { message: "Validation failed", errors: [{ path: "votes.0.userId", message: "Ada Lovelace declared a conflict" }] }),
    );
    const { user } = open("founder");
    await user.click(await within(await agenda()).findByRole("button", { name: "Record show of hands on Approve the budget" }));
    const dialog = await screen.findByRole("dialog", { name: "Record show of hands" });
    await user.click(within(await within(dialog).findByRole("radiogroup", { name: "Ada Lovelace" })).getByRole("radio", { name: "No" }));
    await user.click(within(dialog).getByRole("button", { name: "Record votes" }));
    const alert = await within(dialog).findByRole("alert");
    expect(alert).toHaveTextContent("Validation failed");
    expect(alert).toHaveTextContent("Ada Lovelace declared a conflict");
    expect(within(within(dialog).getByRole("radiogroup", { name: "Ada Lovelace" })).getByRole("radio", { name: "No" })).toBeChecked();
  });
});
