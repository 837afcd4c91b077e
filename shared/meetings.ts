import { z } from "zod";
import { formatAgendaItems } from "./agenda";
import { answer } from "./answer";
import { dateInput, id, ignored, integer, isStorableDate, isoTimestamp, latestYear, limits, text, timeInput } from "./input";
import { agendaField, locationField, locationText, titleField } from "./meeting-fields";
import { meetingEndFrom, meetingLengthMs, meetingStatuses, type MeetingStatus } from "./meeting-model";

/** Statuses a scheduled (non-draft) meeting may carry. */
const scheduledMeetingStatuses = ["pending", "confirmed", "cancelled"] as const;

/** The schedule dialog's values; used by the modal through zodResolver. */
export const meetingFormSchema = z.object({
  title: titleField(),
  date: dateInput("Date is required"),
  time: timeInput("Time is required"),
  location: locationField,
  agenda: z.optional(agendaField),
  // Member ids as the participant checkboxes hold them.
  participants: z.array(text({ max: 10 })).optional(),
  sendNotifications: z.boolean().optional(),
});
export type MeetingFormValues = z.infer<typeof meetingFormSchema>;

const memberId = id("Participants must be member ids");

/**
 * The JSON text in a meeting document's `content`, as the server accepts it.
 * Dates become Date objects; participant ids are de-duplicated numbers.
 */
export const meetingContentSchema = z
  .object({
    type: z.literal("meeting", { message: 'Meeting content must have type "meeting"' }),
    title: titleField(),
    date: isoTimestamp("Date must be an ISO date and time"),
    endDate: isoTimestamp("End date must be an ISO date and time"),
    location: locationField,
    status: z.enum(scheduledMeetingStatuses, { message: "Status must be pending, confirmed or cancelled" }),
    participants: z
      .array(memberId, { message: "Participants must be a list of member ids" })
      .max(500, "At most 500 participants")
      .default([])
      .transform((ids) => [...new Set(ids)]),
    agenda: z.nullish(agendaField).transform((value) => value ?? ""),
  })
  .refine(
    (content) =>
      !(content.date instanceof Date && content.endDate instanceof Date) ||
      content.endDate.getTime() === content.date.getTime() + meetingLengthMs,
    {
      message: "End date must be two hours after the start",
      path: ["endDate"],
    },
  );
export type MeetingContentInput = z.input<typeof meetingContentSchema>;
export type MeetingContent = z.output<typeof meetingContentSchema>;

/** The content as the server writes it back (JSON text of this shape, keys in this order). */
export interface MeetingContentWire {
  type: "meeting";
  title: string;
  date: string;
  endDate: string;
  location: string;
  status: MeetingStatus;
  participants: string[];
  agenda: string;
}

/** `POST /api/new-meeting`: the draft made before generating an agenda. */
export const newMeetingSchema = z.object({
  title: titleField("Please provide a meeting title first"),
  date: isoTimestamp("Date must be an ISO date and time").check(
    z.refine((date: Date) => isStorableDate(meetingEndFrom(date)), `The meeting must end by the year ${latestYear}`),
  ),
  // Always start + 2 h on the server; accepted so the client's body passes.
  endDate: z.optional(text({ max: 100 })),
  location: z._default(z.optional(locationText), ""),
  status: ignored,
  companyId: z.optional(id("companyId must be your active company")),
  createdBy: z.optional(id("createdBy must be the signed-in user")),
});
export type NewMeetingInput = z.input<typeof newMeetingSchema>;

/** A generated agenda: 3–12 items, durations 1–120 minutes. */
const agendaItemSchema = z.object({
  title: text({ max: limits.title, min: 1 }),
  duration: integer({ min: 1, max: 120 }),
  description: z._default(text({ max: 1000 }), ""),
});
export type AgendaItem = z.output<typeof agendaItemSchema>;
export const agendaItemsSchema = z.array(agendaItemSchema).min(3).max(12);

export const generatedAgendaSchema = answer.object({
  items: answer.array(answer.object({ title: answer.string(), duration: answer.number().int(), description: answer.string() })),
  source: answer.enum(["ai", "template"]),
});
export type GeneratedAgenda = z.infer<typeof generatedAgendaSchema>;

/** The draft `POST /api/new-meeting` made: its document id. */
export const meetingDraftSchema = answer.object({ id: answer.number().int() });

/** Dashboard rows (`GET /api/companies/:companyId/meetings/upcoming`). */
export const listedMeetingSchema = answer.object({
  id: answer.number().int(),
  title: answer.string(),
  date: answer.string(),
  endDate: answer.string(),
  location: answer.string(),
  status: answer.enum(meetingStatuses),
  participantCount: answer.number().int(),
});
export type ListedMeeting = z.infer<typeof listedMeetingSchema>;

/** A meeting on the dashboard's list: `papersChanged` when one of its agenda papers changed since the caller read it. */
export const upcomingMeetingSchema = listedMeetingSchema.extend({ papersChanged: answer.boolean() });
export type UpcomingMeeting = z.infer<typeof upcomingMeetingSchema>;

/** Generated items as the agenda text the schedule form holds (the numbered list the server parses back into items). */
export function formatAgenda(items: readonly Pick<AgendaItem, "title" | "duration" | "description">[]): string {
  return formatAgendaItems(items.map((item) => ({ title: item.title, durationMinutes: item.duration, description: item.description })));
}
