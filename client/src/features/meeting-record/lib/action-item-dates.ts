import type { ActionItem } from "@shared/meeting-record";
import { formatDateInput, formatLongDate } from "@/lib/format";

/** Today in the viewer's zone, as a due date is written ("2026-06-05"). */
export const localToday = (now: Date): string => formatDateInput(now);

/** Open and due before today: its day has passed. */
export const isOverdue = (item: Pick<ActionItem, "status" | "dueDate">, today: string): boolean =>
  item.status === "open" && item.dueDate < today;

/** A due date as the lists show it ("June 5, 2026"): a calendar day, the same in every zone. */
export const formatDueDate = (dueDate: string): string => formatLongDate(`${dueDate}T00:00:00`);

/** The first day a meeting's action item may be due: the meeting's UTC calendar date, as the server compares them. */
export const earliestDueDate = (meetingStartsAt: string | Date): string => new Date(meetingStartsAt).toISOString().slice(0, 10);
