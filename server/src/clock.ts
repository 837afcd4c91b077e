import type { Logger } from "pino";

/** Time comes from here so expiry, deadline and "upcoming" rules are testable. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

const utcFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** A moment as notifications and e-mails write it ("4 Jun 2026, 09:00 UTC"): read by people in any zone. */
export function formatUtc(date: Date | string): string {
  return `${utcFormat.format(typeof date === "string" ? new Date(date) : date)} UTC`;
}

const utcDateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

/**
 * A day as documents and notifications write it ("24 Nov 2026"), the UTC day; a bare calendar date ("2026-11-24")
 * is that day.
 */
export function formatUtcDate(date: Date | string): string {
  return utcDateFormat.format(typeof date === "string" ? new Date(date) : date);
}

/**
 * Runs `sweep` every `intervalMs`, never two at once (a turn that finds the last one still running is skipped), and
 * logs how many things it handled (when any) or why it failed; the timer never keeps the process alive.
 */
export function startSweep(
  logger: Pick<Logger, "info" | "warn">,
  intervalMs: number,
  sweep: () => Promise<number>,
  says: { handled: string; failed: string },
): { stop: () => void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweep()
      .then((count) => {
        if (count > 0) logger.info({ count }, says.handled);
      })
      .catch((error: unknown) => logger.warn({ err: error }, says.failed))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
