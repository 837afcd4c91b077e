import { z } from "zod";
import { answer } from "./answer";
import { dateInput, id, isoTimestamp, limits, text } from "./input";
import { actionItemStatuses, attendanceStatuses, minutesStatuses, type AttendanceStatus } from "./meeting-model";
import { voteChoices } from "./resolutions";

// What happened at a meeting: who attended (and whether the board was quorate), the show of hands on a
// resolution moved there, the minutes drafted from that record and approved, and the action items it gave.

// --- Attendance ---

export { actionItemStatuses, attendanceStatuses, minutesStatuses };
export type { ActionItemStatus, AttendanceStatus, MinutesStatus } from "./meeting-model";

/** Attendance statuses that count as being at the meeting (for quorum and a show of hands). */
export const attendingStatuses: readonly AttendanceStatus[] = ["present", "remote"];

export const attendanceStatusLabels: Record<AttendanceStatus, string> = {
  present: "Present",
  remote: "Present by video",
  apologies: "Apologies",
  absent: "Absent",
};

export const attendanceLimits = { attendees: 500, guests: 50, guestName: limits.name } as const;

/** True when two entries of the list name the same key; the refinement then points at the second. */
function refuseRepeats<T>(key: (entry: T) => unknown, field: string, message: string) {
  return (entries: T[], context: z.core.$RefinementCtx<T[]>) => {
    const seen = new Set<unknown>();
    entries.forEach((entry, index) => {
      const value = key(entry);
      if (seen.has(value)) context.addIssue({ code: "custom", message, path: [index, field] });
      seen.add(value);
    });
  };
}

export const attendanceInputSchema = z.object({
  attendees: z
    .array(
      z.object({
        userId: id("Attendee must be a participant's id"),
        status: z.enum(attendanceStatuses, { message: "Status must be present, remote, apologies or absent" }),
      }),
      { message: "Attendees must be a list" },
    )
    .max(attendanceLimits.attendees, `At most ${attendanceLimits.attendees} attendees`)
    .superRefine(refuseRepeats((entry) => entry.userId, "userId", "An attendee is recorded twice")),
  guests: z._default(
    z
      .array(
        z.object({
          name: text({
            max: attendanceLimits.guestName,
            min: 1,
            requiredMessage: "Guest name is required",
            maxMessage: `Guest name must be at most ${attendanceLimits.guestName} characters`,
            singleLine: true,
          }),
        }),
        { message: "Guests must be a list" },
      )
      .max(attendanceLimits.guests, `At most ${attendanceLimits.guests} guests`),
    [],
  ),
  /** Who chaired the meeting: a participant recorded present or remote; null when not recorded. */
  chairId: z.nullish(id("Chair must be a participant's id")),
  /** When the chair closed the meeting: after its start and not in the future; null when not recorded. */
  closedAt: z.nullish(isoTimestamp("Closed at must be an ISO date and time")),
});
export type AttendanceInput = z.input<typeof attendanceInputSchema>;
export type AttendanceValues = z.output<typeof attendanceInputSchema>;

export const meetingQuorumSchema = answer.object({
  /** The company's voting members (founders, admins, members; never observers or guests). */
  voting: answer.number().int(),
  /** How many of them must attend, by the company's quorum setting. */
  required: answer.number().int(),
  /** Voting members recorded present or present by video. */
  present: answer.number().int(),
  quorate: answer.boolean(),
  /** The quorum setting in words ("more than half of the eligible voters"). */
  rule: answer.string(),
});
export type MeetingQuorum = z.infer<typeof meetingQuorumSchema>;

export const attendanceSchema = answer.object({
  /** Every participant of the meeting, in name order; those not yet recorded are absent. */
  attendees: answer.array(
    answer.object({
      userId: answer.number().int(),
      name: answer.string(),
      /** Their role in the company now; null when they are no longer a member. */
      role: answer.string().nullable(),
      status: answer.enum(attendanceStatuses),
    }),
  ),
  guests: answer.array(answer.object({ name: answer.string() })),
  chairId: answer.number().int().nullable(),
  closedAt: answer.string().nullable(),
  quorum: meetingQuorumSchema,
});
export type Attendance = z.infer<typeof attendanceSchema>;

/** "Quorate: 5 of 7 voting members present", or "Not quorate: ..." with how many were needed. */
export function quorumSentence(quorum: MeetingQuorum): string {
  const counted = `${quorum.present} of ${quorum.voting} voting member${quorum.voting === 1 ? "" : "s"} present`;
  return quorum.quorate ? `Quorate: ${counted}` : `Not quorate: ${counted} (${quorum.required} needed)`;
}

// --- A show of hands in a meeting ---

export const meetingVoteInputSchema = z.object({
  meetingId: id("Meeting must be a meeting's id"),
  votes: z
    .array(
      z.object({
        userId: id("Voter must be a member's id"),
        vote: z.enum(voteChoices, { message: "Vote must be yes, no or abstain" }),
      }),
      { message: "Votes must be a list" },
    )
    .min(1, "Record at least one vote")
    .max(attendanceLimits.attendees, `At most ${attendanceLimits.attendees} votes`)
    .superRefine(refuseRepeats((entry) => entry.userId, "userId", "A voter is recorded twice")),
});
export type MeetingVoteInput = z.input<typeof meetingVoteInputSchema>;

// --- Minutes ---

export const approvalRoutes = ["resolution", "chair"] as const;
export type ApprovalRoute = (typeof approvalRoutes)[number];

export const maxMinutesLength = 200_000;

export const minutesSchema = answer.object({
  status: answer.enum(minutesStatuses),
  text: answer.string().nullable(),
  updatedAt: answer.string().nullable(),
  circulatedAt: answer.string().nullable(),
  approvedAt: answer.string().nullable(),
  /** How they were approved, and by whom when the chair signed them. */
  approvedVia: answer.enum(approvalRoutes).nullable(),
  approvedBy: answer.object({ userId: answer.number().int(), name: answer.string() }).nullable(),
  /** Hex SHA-256 of the approved text's UTF-8 bytes. */
  sha256: answer.string().nullable(),
  /** The approved minutes' PDF in the library (category "Meeting Minutes"). */
  documentId: answer.number().int().nullable(),
  /** The resolution approving them, once proposed. */
  resolutionId: answer.number().int().nullable(),
});
export type Minutes = z.infer<typeof minutesSchema>;

/** A meeting's minutes before a first draft: status none, every other field null. */
export const noMinutes: Minutes = {
  status: "none",
  text: null,
  updatedAt: null,
  circulatedAt: null,
  approvedAt: null,
  approvedVia: null,
  approvedBy: null,
  sha256: null,
  documentId: null,
  resolutionId: null,
};

export const improvementOutcomes = ["kept", "refused", "unavailable", "failed"] as const;

/** A draft's answer: the minutes, and what became of the AI's wording when it was asked for. */
export const minutesDraftSchema = minutesSchema.extend({
  improvement: answer
    .object({
      outcome: answer.enum(improvementOutcomes),
      /** Why the AI's wording was not used ("The AI's version dropped '5 yes'"), or null when it was. */
      message: answer.string().nullable(),
    })
    .nullable(),
});
export type MinutesDraft = z.infer<typeof minutesDraftSchema>;

export const minutesDraftInputSchema = z.object({ improve: z.optional(z.boolean({ message: "Improve must be true or false" })) });

export const minutesTextInputSchema = z.object({
  text: text({
    max: maxMinutesLength,
    min: 1,
    requiredMessage: "Minutes text is required",
    maxMessage: `Minutes must be at most ${maxMinutesLength.toLocaleString("en-US")} characters`,
  }),
});

export const minutesApprovalInputSchema = z.object({
  via: z.enum(approvalRoutes, { message: "Approval must be by resolution or by the chair" }),
});

// --- Action items ---

export const actionItemTitleMax = limits.title;

const actionItemTitle = text({
  max: actionItemTitleMax,
  min: 1,
  requiredMessage: "Title is required",
  maxMessage: `Title must be at most ${actionItemTitleMax} characters`,
  singleLine: true,
});
const actionItemOwner = id("Owner must be a member's id");
const actionItemDue = dateInput("Due date must be a date (YYYY-MM-DD)");

export const createActionItemSchema = z.object({ title: actionItemTitle, ownerId: actionItemOwner, dueDate: actionItemDue });
export type CreateActionItemInput = z.input<typeof createActionItemSchema>;

/** The owner may change `status` only; founders and admins any field. */
export const updateActionItemSchema = z.object({
  title: z.optional(actionItemTitle),
  ownerId: z.optional(actionItemOwner),
  dueDate: z.optional(actionItemDue),
  status: z.optional(z.enum(actionItemStatuses, { message: "Status must be open or done" })),
});
export type UpdateActionItemInput = z.input<typeof updateActionItemSchema>;

export const actionItemsQuerySchema = z.object({
  /** "me", or a member's id. */
  owner: z.optional(z.union([z.literal("me"), id("Owner must be me or a member's id")])),
  status: z.optional(z.enum(actionItemStatuses, { message: "Status must be open or done" })),
});

export const actionItemSchema = answer.object({
  id: answer.number().int(),
  meetingId: answer.number().int(),
  meetingTitle: answer.string(),
  title: answer.string(),
  ownerId: answer.number().int(),
  ownerName: answer.string(),
  /** A calendar date, "2026-05-01". */
  dueDate: answer.string(),
  status: answer.enum(actionItemStatuses),
});
export type ActionItem = z.infer<typeof actionItemSchema>;
