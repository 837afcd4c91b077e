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
