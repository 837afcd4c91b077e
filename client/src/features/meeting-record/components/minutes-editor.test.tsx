import { act, screen, waitFor, within } from "@testing-library/react";
import * as accountApi from "@shared/api/account";
import * as meetingRecordApi from "@shared/api/meeting-record";
import type { Minutes } from "@shared/meeting-record";
import { preferenceDefaults } from "@shared/preferences";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { buildStartedMeeting, captureBodies, pageNow, pageUser, runOnMeetingPageClock, serveMeetingPage } from "@/testing/meeting-fixtures";
import { draftedMinutes, draftText, serveMeetingRecord } from "@/testing/record-fixtures";
import { AUTOSAVE_DELAY_MS } from "@/features/meeting-record/components/minutes-editor";

runOnMeetingPageClock();

const started = buildStartedMeeting(95);

const section = () => screen.findByRole("region", { name: "Minutes" });

/** The started meeting's page, for a founder, with its minutes as given. */
function open(minutes: Minutes) {
  serveMeetingPage({ meeting: started });
  serveMeetingRecord(started.id, { minutes });
  return renderApp({ path: `/meetings/${started.id}`, signedInAs: pageUser(7, "founder") });
}

describe("editing the minutes", () => {
  /**
   * The editor, once the page has settled; from then on timers are faked too (advancing with real time, so requests
   * still run) and the auto-save pause can be stepped over.
   */
  async function editor() {
    const textbox = await within(await section()).findByRole("textbox", { name: "Minutes text" });
    await within(await screen.findByRole("region", { name: "Attendance" })).findByRole("button", { name: "Save attendance" });
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"], shouldAdvanceTime: true, now: pageNow });
    return textbox;
  }

  function captureEdits(refusal?: { status: number; message: string }) {
    return captureBodies(
      meetingRecordApi.editMinutes,
      (body) => (refusal ? apiError(refusal.status, refusal.message) : { ...draftedMinutes, text: body.text }),
      { params: { id: started.id } },
    );
  }

  it("saves on its own a moment after typing stops when Auto-save Drafts is on, and says so quietly", async () => {
    const bodies = captureEdits();
    const { user } = open(draftedMinutes);
    const textbox = await editor();
    await user.type(textbox, "\nApologies: none");
    expect(bodies).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS));
    await waitFor(() => expect(bodies).toEqual([{ text: `${draftText}\nApologies: none` }]));
    const status = await within(await section()).findByText("Saved");
    expect(status).toHaveAttribute("aria-live", "polite");
  });

  it("waits for 'Save draft' when Auto-save Drafts is off", async () => {
    server.use(handle(accountApi.getPreferences, () => ({ ...preferenceDefaults, autoSaveDrafts: false }), { params: { id: 7 } }));
    const bodies = captureEdits();
    const { user } = open(draftedMinutes);
    const region = await section();
    const textbox = await editor();
    await user.type(textbox, " and more");
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 4));
    expect(bodies).toEqual([]);
    expect(within(region).getByText("Unsaved changes")).toBeInTheDocument();
    await user.click(within(region).getByRole("button", { name: "Save draft" }));
    await waitFor(() => expect(bodies).toEqual([{ text: `${draftText} and more` }]));
    expect(await within(region).findByText("Saved")).toBeInTheDocument();
  });

  it("keeps the text when a save fails, says why, and does not try again until the text changes", async () => {
    const bodies = captureEdits({ status: 409, message: "The minutes are approved: nothing about them changes" });
    const { user } = open(draftedMinutes);
    const region = await section();
    const textbox = await editor();
    await user.type(textbox, " (corrected)");
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS));
    expect(await within(region).findByText("Not saved: The minutes are approved: nothing about them changes")).toBeInTheDocument();
    expect(textbox).toHaveValue(`${draftText} (corrected)`);
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 4));
    expect(bodies).toHaveLength(1);
  });

  it("says when the text is over 200,000 characters and does not save it", async () => {
    const bodies = captureEdits();
    const { user } = open({ ...draftedMinutes, text: "x".repeat(200_000) });
    const region = await section();
    const textbox = await editor();
    await user.type(textbox, "y");
    expect(within(region).getByText("200,001 / 200,000 characters")).toHaveClass("text-destructive");
    expect(textbox).toHaveAttribute("aria-invalid", "true");
    expect(within(region).getByRole("button", { name: "Save draft" })).toBeDisabled();
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2));
    expect(bodies).toEqual([]);
  });
});
