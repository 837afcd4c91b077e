import { format } from "date-fns";
import type { MeetingUpdateInput, RescheduleFormValues } from "@shared/agenda";
import { meetingEndFrom } from "@shared/meeting-model";
import { DATE_INPUT_FORMAT, TIME_INPUT_FORMAT } from "@/lib/format";

/** The reschedule form's values from the meeting as it is: its local date and time, and its place. */
export function rescheduleDefaults(meeting: { date: Date; location: string }): RescheduleFormValues {
  return { date: format(meeting.date, DATE_INPUT_FORMAT), time: format(meeting.date, TIME_INPUT_FORMAT), location: meeting.location };
}

/** The PATCH body of a reschedule that starts at `start` (the form's local date and time): it lasts two hours, as every meeting does. */
export function toRescheduleUpdate(values: RescheduleFormValues, start: Date): MeetingUpdateInput {
  return { date: start.toISOString(), endDate: meetingEndFrom(start).toISOString(), location: values.location.trim() };
}
