// What a meeting is, without validation: the statuses, how a meeting is stored (as a JSON document of the
// Meeting category) and its length. Kept free of zod on purpose: the signed-in first load reads these (the
// dashboard's upcoming meetings) and must not download the validation library.

/** A meeting lasts a fixed two hours. */
export const meetingLengthMs = 2 * 60 * 60 * 1000;

/** A meeting's status. `draft` exists only for agenda generation and is never listed. */
export const meetingStatuses = ["draft", "pending", "confirmed", "cancelled"] as const;
export type MeetingStatus = (typeof meetingStatuses)[number];

export const meetingCategory = "Meeting";
/** The library category of approved minutes' PDFs (the compliance rule counts documents named "… minutes …"). */
export const minutesCategory = "Meeting Minutes";
/** The library category of written resolutions' certificates (PDFs with the machine-readable certificate inside). */
export const resolutionCertificatesCategory = "Resolution Certificates";
export const meetingFileType = "application/json";
export const meetingNamePrefix = "Meeting: ";

/** The end of a meeting that starts at `start`: two hours later. */
export function meetingEndFrom(start: Date): Date {
  return new Date(start.getTime() + meetingLengthMs);
}

/** How a participant attended: present in the room, present by video, sent apologies, or absent. */
export const attendanceStatuses = ["present", "remote", "apologies", "absent"] as const;
export type AttendanceStatus = (typeof attendanceStatuses)[number];

/** Minutes move draft → circulated → approved; "none" until a first draft. */
export const minutesStatuses = ["none", "draft", "circulated", "approved"] as const;
export type MinutesStatus = (typeof minutesStatuses)[number];

export const actionItemStatuses = ["open", "done"] as const;
/** What an agenda item is for; an item is for discussion unless it says otherwise. */
export const agendaPurposes = ["decision", "discussion", "noting"] as const;
export type AgendaPurpose = (typeof agendaPurposes)[number];
export const agendaPurposeLabels: Record<AgendaPurpose, string> = {
  decision: "For decision",
  discussion: "For discussion",
  noting: "For noting",
};
export type ActionItemStatus = (typeof actionItemStatuses)[number];
