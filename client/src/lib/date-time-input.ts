import { isValid, parse } from "date-fns";
import { DATE_INPUT_FORMAT, TIME_INPUT_FORMAT } from "@/lib/format";

/**
 * A form's local date (yyyy-MM-dd) and time (HH:mm) as an instant; null when they do not name one.
 * Kept out of format.ts: it parses with date-fns, which the first load leaves out.
 */
export function localStart(date: string, time: string): Date | null {
  const parsed = parse(`${date} ${time}`, `${DATE_INPUT_FORMAT} ${TIME_INPUT_FORMAT}`, new Date(0));
  return isValid(parsed) ? parsed : null;
}
