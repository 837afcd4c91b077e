import { format } from "date-fns";
import type { CreateDocumentInput } from "@shared/documents";
import { meetingCategory, meetingEndFrom, meetingFileType, meetingNamePrefix } from "@shared/meeting-model";
import type { MeetingContentWire, MeetingFormValues } from "@shared/meetings";
import { DATE_INPUT_FORMAT, TIME_INPUT_FORMAT } from "@/lib/format";

/** The default location: 'Virtual' with a video-conference service's name in parentheses. */
export const DEFAULT_MEETING_LOCATION = "Virtual (Zoom)";

/** The form's defaults: date today, time now, in the user's time zone; notifications on. */
export function defaultMeetingValues(now: Date, initial: Partial<MeetingFormValues> = {}): MeetingFormValues {
  return {
    title: initial.title ?? "",
    date: initial.date ?? format(now, DATE_INPUT_FORMAT),
    time: initial.time ?? format(now, TIME_INPUT_FORMAT),
    location: initial.location ?? DEFAULT_MEETING_LOCATION,
    agenda: initial.agenda ?? "",
    participants: initial.participants ?? [],
    sendNotifications: initial.sendNotifications ?? true,
  };
}

/** The meeting content the server stores (dates in UTC, end = start + 2 h). */
export function toMeetingContent(values: MeetingFormValues, start: Date): MeetingContentWire {
  return {
    type: "meeting",
    title: values.title.trim(),
    date: start.toISOString(),
    endDate: meetingEndFrom(start).toISOString(),
    location: values.location.trim(),
    status: "pending",
    participants: values.participants ?? [],
    agenda: values.agenda ?? "",
  };
}

/** The `POST /api/documents` body that creates a meeting: a document of category 'Meeting' whose content is the meeting. */
export function toMeetingDocument(
  values: MeetingFormValues,
  start: Date,
  user: { id: number; companyId: number | null },
): CreateDocumentInput {
  const content = JSON.stringify(toMeetingContent(values, start));
  return {
    name: `${meetingNamePrefix}${values.title.trim()}`,
    fileType: meetingFileType,
    fileSize: content.length,
    content,
    category: meetingCategory,
    companyId: user.companyId,
    uploadedBy: user.id,
    sendNotifications: values.sendNotifications ?? false,
  };
}
