/**
 * Freezes the date at `now` for each test of the current file (or `describe` block). Only Date is faked: timers
 * stay real for user-event, msw and the queries' own waits; a test that needs more fakes it itself.
 */
export function freezeDateAt(now: Date): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
