// How long a paper takes to read. Kept free of zod: the meeting page and the documents list show it on their
// first render, and must not evaluate the schema library for it.

/** A director reads about 30 pages an hour. */
export const pagesPerHour = 30;

/** Minutes to read `pages` pages at 30 an hour, rounded up; null when the page count is unknown. */
export function readingMinutes(pages: number | null): number | null {
  return pages == null ? null : Math.ceil((pages / pagesPerHour) * 60);
}

/** "45 min", "2 h", "1 h 30 min". */
export function readingTimeText(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
