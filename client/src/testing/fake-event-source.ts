import { act } from "@testing-library/react";
import type { LiveEventData, LiveEventKind } from "@shared/live-events";

/**
 * jsdom has no EventSource. This one stands in for the browser's: the test opens, feeds, drops or refuses each
 * stream the app creates, as the server and the network would.
 */
export class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  /** Every stream created since the fake was installed, oldest first. */
  static created: FakeEventSource[] = [];

  readonly url: string;
  readyState = FakeEventSource.CONNECTING;
  private nextId = 1;

  constructor(url: string | URL) {
    super();
    this.url = String(url);
    FakeEventSource.created.push(this);
  }

  /** Whether the app closed it: a closed stream fires nothing more. */
  closed = false;

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
    this.closed = true;
  }

  /** As the browser does: the state changes, then the event fires. */
  private fire(event: Event, readyState = this.readyState): void {
    if (this.closed) throw new Error(`the app closed this stream; it cannot fire ${event.type}`);
    this.readyState = readyState;
    act(() => void this.dispatchEvent(event));
  }

  /** The server answered 200: the stream is open. */
  open(): void {
    this.fire(new Event("open"), FakeEventSource.OPEN);
  }

  /** One event as the server writes it (`id:`, `event:`, `data:` JSON). */
  send<Kind extends LiveEventKind>(kind: Kind, data: LiveEventData[Kind]): void {
    if (this.readyState !== FakeEventSource.OPEN) throw new Error("the stream is not open");
    const lastEventId = String(this.nextId++);
    this.fire(new MessageEvent(kind, { data: JSON.stringify(data), lastEventId }));
  }

  /** The connection dropped: the browser will reconnect by itself. */
  drop(): void {
    this.fire(new Event("error"), FakeEventSource.CONNECTING);
  }

  /** The server refused the stream (401, 429): the browser gives up on it. */
  refuse(): void {
    this.fire(new Event("error"), FakeEventSource.CLOSED);
  }
}

/** Puts the fake in place of EventSource for the current test; `latest()` is the stream the app opened last. */
export function installFakeEventSource() {
  FakeEventSource.created = [];
  vi.stubGlobal("EventSource", FakeEventSource);
  onTestFinished(() => {
    vi.unstubAllGlobals();
  });
  return {
    created: () => FakeEventSource.created,
    latest: (): FakeEventSource => {
      const source = FakeEventSource.created.at(-1);
      if (!source) throw new Error("no stream was opened");
      return source;
    },
  };
}
