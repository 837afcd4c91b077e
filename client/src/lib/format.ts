import { format } from "date-fns";
import { displayName } from "@shared/people";

const fileSizeUnits = ["Bytes", "KB", "MB", "GB"] as const;

/** A file size in Bytes, KB, MB or GB (base 1024, one decimal past Bytes): 1023 → "1023 Bytes", 1024 → "1.0 KB". */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 Bytes";
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), fileSizeUnits.length - 1);
  const value = bytes / 1024 ** exponent;
  return exponent === 0 ? `${Math.round(value)} Bytes` : `${value.toFixed(1)} ${fileSizeUnits[exponent]}`;
}

/** The date and time formats of every screen, and those of the date and time inputs. */
export const DATE_FORMAT_LONG = "MMMM d, yyyy";
export const TIME_FORMAT = "h:mm a";
export const DATE_INPUT_FORMAT = "yyyy-MM-dd";
export const TIME_INPUT_FORMAT = "HH:mm";

/** "July 31, 2023". */
export function formatLongDate(value: Date | string | number): string {
  return format(new Date(value), DATE_FORMAT_LONG);
}

/** "2:30 PM". */
export function formatTime(value: Date | string | number): string {
  return format(new Date(value), TIME_FORMAT);
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
