import { z } from "zod";

/** Spec §9: a meeting lasts a fixed two hours. */
const meetingLengthMs = 2 * 60 * 60 * 1000;

/** Spec §4 "Meeting status". `draft` exists only for agenda generation and is never listed. */
export const meetingStatuses = ["draft", "pending", "confirmed", "cancelled"] as const;
export type MeetingStatus = (typeof meetingStatuses)[number];
/** Statuses a scheduled (non-draft) meeting may carry. */
const scheduledMeetingStatuses = ["pending", "confirmed", "cancelled"] as const;

export const meetingCategory = "Meeting";
export const meetingFileType = "application/json";
export const meetingNamePrefix = "Meeting: ";

/** The end of a meeting that starts at `start`: two hours later. */
export function meetingEndFrom(start: Date): Date {
  return new Date(start.getTime() + meetingLengthMs);
}

// --- The meeting's fields, with the spec's §5 messages: one definition for the form, the content and the draft ---

const titleField = (requiredMessage = "Meeting title is required") =>
  z.string({ message: "Meeting title is required" }).trim().min(1, requiredMessage).max(200, "Title must be at most 200 characters");
/** The draft may leave the location empty; a meeting may not. */
const locationText = z.string({ message: "Location is required" }).trim().max(500, "Location must be at most 500 characters");
const locationField = locationText.min(1, "Location is required");
const agendaField = z.string().max(20_000, "Agenda must be at most 20,000 characters");

/** Spec §3 "Meeting form values" with the §5 messages; used by the modal through zodResolver. */
export const meetingFormSchema = z.object({
  title: titleField(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Date is required"),
  time: z.string().regex(/^\d{2}:\d{2}$/, "Time is required"),
  location: locationField,
  agenda: agendaField.optional(),
  participants: z.array(z.string()).optional(),
  sendNotifications: z.boolean().optional(),
});
export type MeetingFormValues = z.infer<typeof meetingFormSchema>;

const isoDateTime = (message: string) =>
  z.iso
    .datetime({ offset: true, message })
    .transform((value) => new Date(value))
    .refine((date) => !Number.isNaN(date.getTime()), message);

const memberId = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).trim())
  .refine((value) => /^\d{1,9}$/.test(value) && Number(value) > 0, "Participants must be member ids");

/**
 * The JSON text in a meeting document's `content`, as the server accepts it.
 * Dates become Date objects; participant ids are de-duplicated numbers.
 */
export const meetingContentSchema = z
  .object({
    type: z.literal("meeting", { message: 'Meeting content must have type "meeting"' }),
    title: titleField(),
    date: isoDateTime("Date must be an ISO date and time"),
    endDate: isoDateTime("End date must be an ISO date and time"),
    location: locationField,
    status: z.enum(scheduledMeetingStatuses, { message: "Status must be pending, confirmed or cancelled" }),
    participants: z
      .array(memberId, { message: "Participants must be a list of member ids" })
      .max(500, "At most 500 participants")
      .default([])
      .transform((ids) => [...new Set(ids.map(Number))]),
    agenda: agendaField.nullish().transform((value) => value ?? ""),
  })
  .refine((content) => !(content.date instanceof Date && content.endDate instanceof Date) || content.endDate.getTime() === content.date.getTime() + meetingLengthMs, {
    message: "End date must be two hours after the start",
    path: ["endDate"],
  });
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
  date: isoDateTime("Date must be an ISO date and time"),
  // Always start + 2 h on the server; accepted so the spec's body passes.
  endDate: z.string().optional(),
  location: locationText.optional().default(""),
  status: z.string().optional(),
  companyId: z.union([z.number(), z.string()]).optional(),
  createdBy: z.union([z.number(), z.string()]).optional(),
});
export type NewMeetingInput = z.input<typeof newMeetingSchema>;

/** A generated agenda: 3–12 items, durations 1–120 minutes. */
const agendaItemSchema = z.object({
  title: z.string().trim().min(1).max(200),
  duration: z.number().int().min(1).max(120),
  description: z.string().trim().max(1000).default(""),
});
export type AgendaItem = z.output<typeof agendaItemSchema>;
export const agendaItemsSchema = z.array(agendaItemSchema).min(3).max(12);

export interface GeneratedAgenda {
  items: AgendaItem[];
  source: "ai" | "template";
}

/** Spec §8: "N. title (duration min)", the description on the next line, a blank line between entries. */
export function formatAgenda(items: readonly Pick<AgendaItem, "title" | "duration" | "description">[]): string {
  return items
    .map((item, index) => {
      const heading = `${index + 1}. ${item.title} (${item.duration} min)`;
      return item.description ? `${heading}\n${item.description}` : heading;
    })
    .join("\n\n");
}

/** Dashboard rows (`GET /api/companies/:companyId/meetings/upcoming`). */
export interface ListedMeeting {
  id: number;
  title: string;
  date: string;
  endDate: string;
  location: string;
  status: MeetingStatus;
  participantCount: number;
}
