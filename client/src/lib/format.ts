import { displayName } from "@shared/people";

const fileSizeUnits = ["Bytes", "KB", "MB", "GB"] as const;

/** A file size in Bytes, KB, MB or GB (base 1024, one decimal past Bytes): 1023 → "1023 Bytes", 1024 → "1.0 KB". */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 Bytes";
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), fileSizeUnits.length - 1);
  const value = bytes / 1024 ** exponent;
  return exponent === 0 ? `${Math.round(value)} Bytes` : `${value.toFixed(1)} ${fileSizeUnits[exponent]}`;
}

/** The date and time formats of every screen, and those of the date and time inputs (date-fns patterns). */
export const DATE_FORMAT_LONG = "MMMM d, yyyy";
export const TIME_FORMAT = "h:mm a";
export const DATE_INPUT_FORMAT = "yyyy-MM-dd";
export const TIME_INPUT_FORMAT = "HH:mm";
export const DAY_MONTH_TIME_FORMAT = "d MMM HH:mm";

// The formats the signed-in shell, the dashboard and the lists of papers use are written out below rather than passed to date-fns'
// format: that and its locale are about 6 KB compressed, which every first load would download. The test holds
// them to date-fns' output; the forms that parse these formats use date-fns with the patterns above.
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const pad = (value: number, digits = 2) => String(value).padStart(digits, "0");

/** The date of `value`; an invalid one throws, as date-fns' format does. */
function validDate(value: Date | string | number): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError("Invalid time value");
  return date;
}

/** "July 31, 2023" (DATE_FORMAT_LONG), in the viewer's zone. */
export function formatLongDate(value: Date | string | number): string {
  const date = validDate(value);
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${pad(date.getFullYear(), 4)}`;
}

/** "2:30 PM" (TIME_FORMAT), in the viewer's zone. */
export function formatTime(value: Date | string | number): string {
  const date = validDate(value);
  const hours = date.getHours();
  return `${hours % 12 || 12}:${pad(date.getMinutes())} ${hours < 12 ? "AM" : "PM"}`;
}

/** "31 Jul 14:05" (DAY_MONTH_TIME_FORMAT), in the viewer's zone: when a paper was last replaced. */
export function formatDayMonthTime(value: Date | string | number): string {
  const date = validDate(value);
  return `${date.getDate()} ${MONTHS[date.getMonth()]!.slice(0, 3)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** "2023-07-31" (DATE_INPUT_FORMAT, a date input's value), in the viewer's zone. */
export function formatDateInput(value: Date | string | number): string {
  const date = validDate(value);
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

type PersonName = Parameters<typeof displayName>[0];

/**
 * The initials for an avatar: the first letters of the first and last word of a name, or of a
 * person's display name ("Ada Lovelace" → "AL", "ada" → "A", username only → its first letter); "?" for nothing.
 */
export function initials(nameOrPerson: string | PersonName): string {
  const name = typeof nameOrPerson === "string" ? nameOrPerson : displayName(nameOrPerson);
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return "?";
  const first = parts[0]!.charAt(0);
  const last = parts.length > 1 ? parts[parts.length - 1]!.charAt(0) : "";
  return (first + last).toUpperCase();
}
