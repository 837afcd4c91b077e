import { act, renderHook } from "@testing-library/react";
import * as eventsApi from "@shared/api/events";
import { apiUrl } from "@/lib/api-client";
import { isLiveConnected, LIVE_RETRY_MAX_MS, openLiveEvents, useLiveConnected, type LiveEventHandlers } from "@/lib/live-events";
import { installFakeEventSource } from "@/testing/fake-event-source";

function spyHandlers() {
  return {
    votes: vi.fn(),
    resolution: vi.fn(),
    notification: vi.fn(),
    meeting: vi.fn(),
    document: vi.fn(),
    resync: vi.fn(),
  } satisfies LiveEventHandlers;
}

let close: () => void = () => undefined;
afterEach(() => {
  close();
  vi.useRealTimers();
});

describe("openLiveEvents", () => {
  it("opens one stream at the events address and hands each kind of event to its handler", () => {
    const streams = installFakeEventSource();
    const handlers = spyHandlers();
    close = openLiveEvents(handlers);
    expect(streams.created().map((source) => source.url)).toEqual([apiUrl(eventsApi.openEventStream)]);

    const source = streams.latest();
    source.open();
    source.send("votes", { resolutionId: 4, yes: 2, no: 1, abstain: 0, total: 3 });
    source.send("document", { documentId: 9, change: "removed" });
    source.send("notification", { id: 12 });
    expect(handlers.votes).toHaveBeenCalledWith({ resolutionId: 4, yes: 2, no: 1, abstain: 0, total: 3 });
    expect(handlers.document).toHaveBeenCalledWith({ documentId: 9, change: "removed" });
    expect(handlers.notification).toHaveBeenCalledWith({ id: 12 });
    expect(handlers.meeting).not.toHaveBeenCalled();
  });

  it("says whether the stream is open, to a component too", () => {
    const streams = installFakeEventSource();
    const { result } = renderHook(() => useLiveConnected());
    close = openLiveEvents(spyHandlers());
    expect(result.current).toBe(false);
    streams.latest().open();
    expect(result.current).toBe(true);
    streams.latest().drop();
    expect(result.current).toBe(false);
    streams.latest().open();
    expect(result.current).toBe(true);
    act(() => close());
    expect(result.current).toBe(false);
    expect(streams.latest().readyState).toBe(EventSource.CLOSED);
  });

  it("reads everything again when it reopens after a gap, never on the first open", () => {
    const streams = installFakeEventSource();
    const handlers = spyHandlers();
    close = openLiveEvents(handlers);
    streams.latest().open();
    expect(handlers.resync).not.toHaveBeenCalled();
    // The browser reconnects by itself.
    streams.latest().drop();
    streams.latest().open();
    expect(handlers.resync).toHaveBeenCalledOnce();
    expect(streams.created()).toHaveLength(1);
  });

  it("after a refusal waits longer each time before asking again, and stops once closed", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const streams = installFakeEventSource();
    const handlers = spyHandlers();
    close = openLiveEvents(handlers);

    streams.latest().refuse();
    expect(streams.latest().readyState).toBe(EventSource.CLOSED);
    vi.advanceTimersByTime(2_499);
    expect(streams.created()).toHaveLength(1);
    vi.advanceTimersByTime(2_501);
    expect(streams.created()).toHaveLength(2);

    // The second refusal in a row waits between 5 and 10 s.
    streams.latest().refuse();
    vi.advanceTimersByTime(4_999);
    expect(streams.created()).toHaveLength(2);
    vi.advanceTimersByTime(5_001);
    expect(streams.created()).toHaveLength(3);

    // However many refusals, never more often than the cap allows.
    for (let attempt = 0; attempt < 10; attempt += 1) {
      streams.latest().refuse();
      vi.advanceTimersByTime(LIVE_RETRY_MAX_MS);
    }
    const count = streams.created().length;
    streams.latest().refuse();
    vi.advanceTimersByTime(LIVE_RETRY_MAX_MS / 2 - 1);
    expect(streams.created()).toHaveLength(count);

    // Once it opens again it reads what it missed.
    vi.advanceTimersByTime(LIVE_RETRY_MAX_MS);
    streams.latest().open();
    expect(handlers.resync).toHaveBeenCalledOnce();

    // Closed while waiting to ask again (signed out): it never asks.
    streams.latest().refuse();
    close();
    vi.advanceTimersByTime(LIVE_RETRY_MAX_MS * 2);
    expect(streams.created()).toHaveLength(count + 1);
  });

  it("takes over from the browser when its own reconnections keep failing", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const streams = installFakeEventSource();
    close = openLiveEvents(spyHandlers());
    streams.latest().open();
    vi.advanceTimersByTime(60_000);
    // A steady stream drops: the browser reconnects by itself, resuming where it was.
    streams.latest().drop();
    expect(streams.latest().readyState).not.toBe(EventSource.CLOSED);
    // Its reconnection fails too: the stream is closed and asked for again later, not every few seconds.
    streams.latest().drop();
    expect(streams.latest().readyState).toBe(EventSource.CLOSED);
    vi.advanceTimersByTime(4_999);
    expect(streams.created()).toHaveLength(1);
    vi.advanceTimersByTime(5_001);
    expect(streams.created()).toHaveLength(2);
  });

  it("counts a stream that drops soon after opening as failing, and one that stayed up as healthy", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const streams = installFakeEventSource();
    close = openLiveEvents(spyHandlers());
    streams.latest().refuse();
    vi.advanceTimersByTime(5_000);
    // It opens, then drops before the first heartbeat: still failing, so it waits instead of letting the browser retry.
    streams.latest().open();
    vi.advanceTimersByTime(1_000);
    streams.latest().drop();
    expect(streams.latest().readyState).toBe(EventSource.CLOSED);
    vi.advanceTimersByTime(10_000);
    expect(streams.created()).toHaveLength(3);
    // This one stays up past a heartbeat: when it drops, the browser reconnects by itself.
    streams.latest().open();
    vi.advanceTimersByTime(20_000);
    streams.latest().drop();
    expect(streams.latest().readyState).toBe(EventSource.CONNECTING);
  });

  it("does nothing where there is no EventSource", () => {
    expect(typeof EventSource).toBe("undefined");
    close = openLiveEvents(spyHandlers());
    expect(isLiveConnected()).toBe(false);
  });
});
