import { act, screen, waitFor, within } from "@testing-library/react";
import * as resolutionsApi from "@shared/api/resolutions";
import type { VoteCounts } from "@shared/resolutions";
import { apiUrl } from "@/lib/api-client";
import { installFakeEventSource } from "@/testing/fake-event-source";
import { handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { buildResolution, details, me, now, serve } from "@/testing/resolution-fixtures";

afterEach(() => {
  vi.useRealTimers();
  server.events.removeAllListeners();
});

/** The counts shown under 'Current votes' in the Cast Your Vote dialog. */
function shownCounts(dialog: HTMLElement) {
  const status = within(dialog).getByRole("status");
  return ["Yes", "No", "Abstain"].map((label) => within(status).getByText(label).nextSibling?.textContent);
}

describe("vote counts from the live stream", () => {
  it("shows new counts on the resolution screen without asking the server, keeping the caller's own vote", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now);
    const streams = installFakeEventSource();
    const resolution = buildResolution({ id: 31, title: "Budget", voteCounts: { yes: 1, no: 1, abstain: 0 } });
    // The resolutions' own reads (the shell's reads may still be arriving on a slow machine).
    const requests: string[] = [];
    server.events.on("request:start", ({ request }) => {
      const path = new URL(request.url).pathname;
      if (/^\/api\/(companies\/3\/)?resolutions/.test(path)) requests.push(path);
    });
    serve([resolution], { votes: () => ({ yes: 1, no: 1, abstain: 0, total: 2, userVote: "yes" }) });
    const voters = [
      { userId: 7, name: "Ada Lovelace" },
      { userId: 8, name: "Alan Turing" },
    ];
    server.use(handle(resolutionsApi.getResolution, () => details(resolution, { voters }), { params: { id: 31 } }));

    renderApp({ path: "/resolutions/31", signedInAs: me });
    const dialog = await screen.findByRole("dialog", { name: "Cast Your Vote" });
    await waitFor(() => expect(within(dialog).getByRole("radio", { name: "Yes" })).toBeChecked());
    await waitFor(() => expect(streams.created()).toHaveLength(1));
    streams.latest().open();
    const card = screen.getByRole("article", { name: "Budget", hidden: true });
    const before = requests.length;

    // Alan changes his vote: same voters, new counts.
    streams.latest().send("votes", { resolutionId: 31, yes: 2, no: 0, abstain: 0, total: 2 });
    await waitFor(() => expect(shownCounts(dialog)).toEqual(["2", "0", "0"]));
    expect(within(card).getByText("Yes").nextSibling).toHaveTextContent("2");
    expect(within(dialog).getByRole("radio", { name: "Yes" })).toBeChecked();
    expect(within(dialog).getByRole("button", { name: "Change Vote" })).toBeInTheDocument();
    // Another company's resolution, not cached here, changes nothing.
    streams.latest().send("votes", { resolutionId: 99, yes: 5, no: 0, abstain: 0, total: 5 });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(requests.slice(before)).toEqual([]);

    // A third member votes: the counts still come from the event; only the list of who voted is asked for.
    streams.latest().send("votes", { resolutionId: 31, yes: 2, no: 0, abstain: 1, total: 3 });
    await waitFor(() => expect(shownCounts(dialog)).toEqual(["2", "0", "1"]));
    await waitFor(() => expect(requests.slice(before)).toEqual([apiUrl(resolutionsApi.getResolution, { params: { id: 31 } })]));
  });

  it("polls the counts every 5 s while the stream is down, and not while it is open", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    vi.setSystemTime(now);
    const streams = installFakeEventSource();
    let polls = 0;
    serve([buildResolution({ id: 23, title: "Polled" })], {
      votes: (): VoteCounts => {
        polls += 1;
        return { yes: polls, no: 0, abstain: 0, total: polls, userVote: null };
      },
    });
    renderApp({ path: "/resolutions/23", signedInAs: me });
    const dialog = await screen.findByRole("dialog", { name: "Cast Your Vote" });
    await waitFor(() => expect(shownCounts(dialog)[0]).toBe("1"));
    expect(streams.created()).toHaveLength(1);

    // Not open yet: the poll runs as it always has.
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(shownCounts(dialog)[0]).toBe("2"));

    streams.latest().open();
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(polls).toBe(2);

    // Dropped: polling again until it is back.
    streams.latest().drop();
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(shownCounts(dialog)[0]).toBe("3"));

    // Back: the counts are read once (events may have been missed meanwhile), then no more polls.
    streams.latest().open();
    await waitFor(() => expect(shownCounts(dialog)[0]).toBe("4"));
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(polls).toBe(4);
  });
});
