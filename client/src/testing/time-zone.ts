// Client tests run in Node (jsdom), where the time zone is the TZ variable. The client program has no
// Node types, so this one place declares the little it touches.
declare const process: { env: Record<string, string | undefined> };

/** Runs the current test file in `timeZone`, so local-time handling is visible on a UTC machine. */
export function runInTimeZone(timeZone: string): void {
  const original = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = timeZone;
  });
  afterAll(() => {
    process.env.TZ = original;
  });
}
