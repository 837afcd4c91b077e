// The lengths of time the compliance rules use, and the UTC date arithmetic they count periods with. Every period is
// counted in UTC calendar months and quarters; "the last N months" is the interval from the same instant N calendar
// months ago (a day past the end of the shorter month is clamped to its last day) up to now, both ends included.

export const dayMs = 24 * 60 * 60 * 1000;

/** A quarter's meeting is due before its last 14 days begin. */
export const quarterGraceDays = 14;
/** The next AGM is due 15 months after the last one; the first 18 months after the company was created. */
export const agmIntervalMonths = 15;
export const firstAgmMonths = 18;
/** An AGM held in the last 12 months is this year's: the rule is done until the next one nears. */
export const agmYearMonths = 12;
/** A meeting must be scheduled at least 7 days before it starts. */
export const noticeDays = 7;
/** How far back notice, financial statements and quorum are looked at. */
export const lookbackMonths = 12;
/** How far back meetings need minutes. */
export const minutesLookbackMonths = 6;
/** Minutes are expected within 30 days of the end of the meeting. */
export const minutesGraceDays = 30;

/** `date` moved by whole calendar months, the day clamped to the target month's last day (Feb 29 + 12 months = Feb 28). */
export function addMonths(date: Date, months: number): Date {
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const result = new Date(date.getTime());
  result.setUTCFullYear(year, month, Math.min(date.getUTCDate(), lastDay));
  return result;
}

export const addDays = (date: Date, days: number) => new Date(date.getTime() + days * dayMs);

/** The calendar quarter (UTC) holding `date`: from its first instant, up to (not including) the next quarter's. */
export function quarterOf(date: Date): { start: Date; end: Date } {
  const first = Math.floor(date.getUTCMonth() / 3) * 3;
  return { start: new Date(Date.UTC(date.getUTCFullYear(), first, 1)), end: new Date(Date.UTC(date.getUTCFullYear(), first + 3, 1)) };
}

/** When a quarter's meeting must be held or scheduled by: the first instant of the quarter's last 14 days. */
export const quarterDeadline = (quarterEnd: Date) => addDays(quarterEnd, -quarterGraceDays);
