import { formatLongDate, formatTime } from "@/lib/format";

/** A meeting's date and times as the lists show them: 'MMMM d, yyyy • h:mm a - h:mm a', in the viewer's time zone. */
export function formatMeetingRange(start: Date | string, end: Date | string): string {
  return `${formatLongDate(start)} • ${formatTimeRange(start, end)}`;
}

/** 'h:mm a - h:mm a'. */
export function formatTimeRange(start: Date | string, end: Date | string): string {
  return `${formatTime(start)} - ${formatTime(end)}`;
}

export const participantsLabel = (count: number) => `${count} ${count === 1 ? "participant" : "participants"}`;
