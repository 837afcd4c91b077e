import { screen, within } from "@testing-library/react";
import * as accountApi from "@shared/api/account";
import * as documentsApi from "@shared/api/documents";
import * as meetingRecordApi from "@shared/api/meeting-record";
import type { Minutes, MinutesDraft } from "@shared/meeting-record";
import { preferenceDefaults } from "@shared/preferences";
import type { CompanyRole } from "@shared/roles";
import { apiUrl } from "@/lib/api-client";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast, findToastBehindModal } from "@/testing/toasts";
import { buildPageMeeting, captureBodies, onStartedMeetingPage, serveMeetingPage, type BodyAnswer } from "@/testing/meeting-fixtures";
import { buildAttendance, buildAttendee, buildMinutes, draftedMinutes, draftText, serveMeetingRecord } from "@/testing/record-fixtures";
import { NO_AI_TEXT } from "@/features/meeting-record/components/kept-minutes";

const { as, started } = onStartedMeetingPage(95);
const sha = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const approved = buildMinutes({
  status: "approved",
  text: draftText,
  circulatedAt: "2026-06-01T08:30:00.000Z",
  approvedAt: "2026-06-01T09:00:00.000Z",
  approvedVia: "chair",
  approvedBy: { userId: 1, name: "Ada Lovelace" },
  sha256: sha,
  documentId: 55,
});

const section = () => screen.findByRole("region", { name: "Minutes" });
const ofStarted = { params: { id: started.id } };
/** Where the approved minutes' PDF is downloaded from. */
const minutesPdf = apiUrl(documentsApi.downloadDocument, { params: { id: 55 }, query: {} });

function open(role: CompanyRole, minutes: Minutes, meeting = started) {
  serveMeetingPage({ meeting });
  serveMeetingRecord(meeting.id, { minutes });
  return renderApp({ path: `/meetings/${meeting.id}`, signedInAs: as(role) });
}

/** Answers the started meeting's drafting with `answer`, recording the bodies. */
function captureDraft(answer: MinutesDraft) {
  return captureBodies(meetingRecordApi.draftMinutes, () => answer, ofStarted);
}

/** Answers the started meeting's approval with `answer`, recording the bodies. */
function captureApproval(answer: BodyAnswer<typeof meetingRecordApi.approveMinutes>) {
  return captureBodies(meetingRecordApi.approveMinutes, answer, ofStarted);
}

describe("the Minutes section for those who read them", () => {
  it("says before the start that minutes come once the meeting starts", async () => {
    serveMeetingPage({ meeting: buildPageMeeting({ id: 96 }) });
    renderApp({ path: "/meetings/96", signedInAs: as("founder") });
    expect(await within(await section()).findByText("Minutes can be drafted once the meeting starts.")).toBeInTheDocument();
  });

  it.each([
    ["none", "The minutes have not been drafted yet.", "Not drafted"],
    ["draft", "The minutes are being drafted.", "Draft"],
  ] as const)("tells a member where %s minutes stand, with no controls", async (status, sentence, badge) => {
    open("member", buildMinutes({ status }));
    const region = await section();
    expect(await within(region).findByText(sentence)).toBeInTheDocument();
    expect(within(region).getByText(badge)).toBeInTheDocument();
    expect(within(region).queryByRole("button")).not.toBeInTheDocument();
    expect(within(region).queryByRole("textbox")).not.toBeInTheDocument();
  });

  it("shows a member circulated minutes read-only", async () => {
    open("observer", { ...draftedMinutes, status: "circulated", circulatedAt: "2026-06-01T08:30:00.000Z" });
    const region = await section();
    expect(await within(region).findByRole("document", { name: "Minutes text" })).toHaveTextContent("Present: Ada Lovelace (chair)");
    expect(within(region).getByText("Circulated")).toBeInTheDocument();
    expect(within(region).queryByRole("textbox")).not.toBeInTheDocument();
    expect(within(region).queryByRole("button", { name: "Approve…" })).not.toBeInTheDocument();
  });

  it("shows approved minutes read-only to a keeper too: when, how, the SHA-256 and the PDF", async () => {
    open("founder", approved);
    const region = await section();
    expect(await within(region).findByText("Approved on June 1, 2026, signed by Ada Lovelace as chair.")).toBeInTheDocument();
    expect(within(region).getByText(sha)).toHaveClass("font-mono", "break-all");
    expect(within(region).getByRole("link", { name: "Download minutes (PDF)" })).toHaveAttribute("href", minutesPdf);
    expect(within(region).getByRole("document", { name: "Minutes text" })).toHaveTextContent("MINUTES OF Q3 Board Meeting");
    expect(within(region).queryByRole("textbox")).not.toBeInTheDocument();
    expect(within(region).queryByRole("button", { name: /Draft|Circulate|Approve/ })).not.toBeInTheDocument();
  });
});

describe("drafting", () => {
  it("drafts from the record and opens the editor on the text", async () => {
    const bodies = captureDraft({ ...draftedMinutes, improvement: null });
    const { user } = open("admin", buildMinutes());
    const region = await section();
    expect(within(region).queryByRole("textbox")).not.toBeInTheDocument();
    await user.click(await within(region).findByRole("button", { name: "Draft minutes" }));
    expect(await findToast("Minutes drafted")).toBeInTheDocument();
    expect(bodies).toEqual([{}]);
    const editor = await within(region).findByRole("textbox", { name: "Minutes text" });
    expect(editor).toHaveValue(draftText);
    expect(editor).toHaveClass("font-mono");
    expect(within(region).getByText(`${draftText.length} / 200,000 characters`)).toBeInTheDocument();
    expect(within(region).getByText("Draft")).toBeInTheDocument();
    expect(within(region).getByRole("button", { name: "Redraft" })).toBeInTheDocument();
  });

  it.each([
    ["kept", null, "Wording improved", null],
    ["refused", "The AI's version dropped '5 yes'", "Wording not changed", "The AI's version dropped '5 yes'"],
    ["unavailable", null, "Wording not changed", NO_AI_TEXT],
    ["failed", "The AI service did not answer", "Wording not changed", "The AI service did not answer"],
  ] as const)("improves the wording (%s) and says what became of it", async (outcome, message, title, description) => {
    const bodies = captureDraft({ ...draftedMinutes, improvement: { outcome, message } });
    const { user } = open("founder", buildMinutes());
    await user.click(await within(await section()).findByRole("button", { name: "Improve wording" }));
    const toast = await findToast(title);
    if (description) expect(toast).toHaveTextContent(description);
    expect(bodies).toEqual([{ improve: true }]);
  });

  it("asks before a draft is rebuilt, and keeps it when told to", async () => {
    const bodies = captureDraft({ ...draftedMinutes, text: "Rebuilt", improvement: null });
    const { user } = open("founder", draftedMinutes);
    await user.click(await within(await section()).findByRole("button", { name: "Redraft" }));
    const ask = await screen.findByRole("alertdialog", { name: "Redraft the minutes?" });
    await user.click(within(ask).getByRole("button", { name: "Keep my draft" }));
    expect(bodies).toEqual([]);
    await user.click(within(await section()).getByRole("button", { name: "Redraft" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Redraft" }));
    expect(await within(await section()).findByDisplayValue("Rebuilt")).toBeInTheDocument();
    expect(bodies).toEqual([{}]);
  });
});

describe("circulating and approving", () => {
  it("saves what was typed, then circulates", async () => {
    server.use(handle(accountApi.getPreferences, () => ({ ...preferenceDefaults, autoSaveDrafts: false }), { params: { id: 7 } }));
    const order: string[] = [];
    server.use(
      handle(
        meetingRecordApi.editMinutes,
        ({ body }) => {
          order.push(`save ${body.text.slice(-4)}`);
          return { ...draftedMinutes, text: `${draftText} end` };
        },
        ofStarted,
      ),
      handle(
        meetingRecordApi.circulateMinutes,
        () => {
          order.push("circulate");
          return { ...draftedMinutes, text: `${draftText} end`, status: "circulated", circulatedAt: "2026-06-01T09:00:00.000Z" };
        },
        ofStarted,
      ),
    );
    const { user } = open("founder", draftedMinutes);
    const region = await section();
    await user.type(await within(region).findByRole("textbox", { name: "Minutes text" }), " end");
    await user.click(within(region).getByRole("button", { name: "Circulate to participants" }));
    expect(await findToast("Minutes circulated")).toBeInTheDocument();
    expect(order).toEqual(["save  end", "circulate"]);
    expect(await within(region).findByText("Circulated")).toBeInTheDocument();
    expect(within(region).getByRole("button", { name: "Approve…" })).toBeInTheDocument();
    expect(within(region).getByRole("button", { name: "Save changes" })).toBeInTheDocument();
  });

  it("shows a refusal to circulate (409)", async () => {
    server.use(handle(meetingRecordApi.circulateMinutes, () => apiError(409, "The minutes are already circulated"), ofStarted));
    const { user } = open("founder", draftedMinutes);
    await user.click(await within(await section()).findByRole("button", { name: "Circulate to participants" }));
    expect(await within(await section()).findByRole("alert")).toHaveTextContent("The minutes are already circulated");
  });

  it("signs circulated minutes as chair: they read Approved, with the SHA-256 and the PDF", async () => {
    const bodies = captureApproval(() => approved);
    const { user } = open("founder", { ...draftedMinutes, status: "circulated" });
    await user.click(await within(await section()).findByRole("button", { name: "Approve…" }));
    const dialog = await screen.findByRole("dialog", { name: "Approve the minutes" });
    expect(within(dialog).getByRole("button", { name: "Propose a resolution" })).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Sign as chair" }));
    expect(await findToastBehindModal("Minutes approved")).toBeInTheDocument();
    expect(bodies).toEqual([{ via: "chair" }]);
    const region = await section();
    expect(await within(region).findByText("Approved on June 1, 2026, signed by Ada Lovelace as chair.")).toBeInTheDocument();
    expect(within(region).getByText(sha)).toBeInTheDocument();
    expect(within(region).getByRole("link", { name: "Download minutes (PDF)" })).toHaveAttribute("href", minutesPdf);
    expect(within(region).queryByRole("textbox")).not.toBeInTheDocument();
  });

  it("proposes a resolution, then links to it instead of offering approval again", async () => {
    captureApproval(() => ({ ...draftedMinutes, status: "circulated", resolutionId: 777 }));
    const { user } = open("admin", { ...draftedMinutes, status: "circulated" });
    await user.click(await within(await section()).findByRole("button", { name: "Approve…" }));
    await user.click(
      within(await screen.findByRole("dialog", { name: "Approve the minutes" })).getByRole("button", { name: "Propose a resolution" }),
    );
    expect(await findToastBehindModal("Resolution proposed")).toBeInTheDocument();
    const region = await section();
    expect(await within(region).findByRole("link", { name: "the resolution approving these minutes" })).toHaveAttribute(
      "href",
      "/resolutions/777",
    );
    expect(within(region).queryByRole("button", { name: "Approve…" })).not.toBeInTheDocument();
  });

  it("shows a keeper minutes before the board read-only: the server refuses every edit until the resolution is decided", async () => {
    open("founder", { ...draftedMinutes, status: "circulated", circulatedAt: "2026-06-01T08:30:00.000Z", resolutionId: 777 });
    const region = await section();
    expect(await within(region).findByRole("document", { name: "Minutes text" })).toHaveTextContent("Present: Ada Lovelace (chair)");
    expect(within(region).getByRole("link", { name: "the resolution approving these minutes" })).toBeInTheDocument();
    expect(within(region).queryByRole("textbox")).not.toBeInTheDocument();
    expect(within(region).queryByRole("button", { name: /Save|Approve/ })).not.toBeInTheDocument();
    expect(within(region).queryByText(/corrections can still be saved/)).not.toBeInTheDocument();
  });

  it("leaves the signature to the recorded chair: a keeper who is not the chair may only propose a resolution", async () => {
    serveMeetingPage({ meeting: started });
    serveMeetingRecord(started.id, {
      minutes: { ...draftedMinutes, status: "circulated" },
      attendance: buildAttendance({ attendees: [buildAttendee(2, "Grace Hopper", "present")], chairId: 2 }),
    });
    const { user } = renderApp({ path: "/meetings/95", signedInAs: as("founder") });
    await user.click(await within(await section()).findByRole("button", { name: "Approve…" }));
    const dialog = await screen.findByRole("dialog", { name: "Approve the minutes" });
    expect(await within(dialog).findByText("Only Grace Hopper, the meeting's chair, can sign them.")).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Propose a resolution" })).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Sign as chair" })).not.toBeInTheDocument();
  });

  it("lets the recorded chair sign even as a member, who may not propose a resolution", async () => {
    const bodies = captureApproval(() => ({ ...approved, approvedBy: { userId: 7, name: "Member Seven" } }));
    serveMeetingPage({ meeting: started });
    serveMeetingRecord(started.id, {
      minutes: { ...draftedMinutes, status: "circulated" },
      attendance: buildAttendance({ attendees: [buildAttendee(7, "Member Seven", "present")], chairId: 7 }),
    });
    const { user } = renderApp({ path: "/meetings/95", signedInAs: as("member") });
    const region = await section();
    expect(within(region).queryByRole("textbox")).not.toBeInTheDocument();
    await user.click(await within(region).findByRole("button", { name: "Approve…" }));
    const dialog = await screen.findByRole("dialog", { name: "Approve the minutes" });
    expect(within(dialog).queryByRole("button", { name: "Propose a resolution" })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Sign as chair" }));
    expect(await within(await section()).findByText("Approved on June 1, 2026, signed by Member Seven as chair.")).toBeInTheDocument();
    expect(bodies).toEqual([{ via: "chair" }]);
  });

  it("shows a refusal to approve (409) in the dialog", async () => {
    captureApproval(() => apiError(409, "The minutes are already before the board as a resolution"));
    const { user } = open("founder", { ...draftedMinutes, status: "circulated" });
    await user.click(await within(await section()).findByRole("button", { name: "Approve…" }));
    const dialog = await screen.findByRole("dialog", { name: "Approve the minutes" });
    await user.click(within(dialog).getByRole("button", { name: "Sign as chair" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("The minutes are already before the board as a resolution");
  });
});
