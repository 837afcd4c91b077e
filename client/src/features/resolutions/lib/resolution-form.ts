import { format } from "date-fns";
import { z } from "zod";
import { dateInput } from "@shared/input";
import { createResolutionSchema, resolutionTypes, type CreateResolutionInput } from "@shared/resolutions";
import { resolutionProcedures } from "@shared/written-resolutions";
import { DATE_INPUT_FORMAT } from "@/lib/format";
import type { DraftFieldChecks } from "@/lib/use-form-draft";

export const MISSING_TITLE = "Missing information";
export const MISSING_TEXT = "Please fill in all the required fields.";
export const CREATE_FAILED_TEXT = "Failed to create resolution. Please try again.";
export const VOTE_FAILED_TEXT = "Failed to submit vote. Please try again.";
export const DEADLINE_PAST_MESSAGE = "The deadline cannot be before today";

/**
 * The New Resolution form: the title and text as the server takes them, how it is decided, and the papers. An online
 * vote needs a type and a deadline date; a written resolution has neither (the board's rule decides it, and it lapses).
 */
export const resolutionFormSchema = z
  .object({
    title: createResolutionSchema.shape.title,
    description: createResolutionSchema.shape.description,
    procedure: z.enum(resolutionProcedures),
    type: z.enum(resolutionTypes, { message: "Type is required" }).optional(),
    deadline: z.string(),
    documentIds: z.array(z.number()),
  })
  .check((ctx) => {
    if (ctx.value.procedure !== "vote") return;
    if (!ctx.value.type) ctx.issues.push({ code: "custom", input: ctx.value.type, path: ["type"], message: "Type is required" });
    const deadline = dateInput("Deadline is required").safeParse(ctx.value.deadline);
    if (!deadline.success) {
      const message = deadline.error.issues[0]?.message ?? "Deadline is required";
      ctx.issues.push({ code: "custom", input: ctx.value.deadline, path: ["deadline"], message });
    }
  });
export type ResolutionFormValues = z.input<typeof resolutionFormSchema>;

export const emptyResolutionForm = (): ResolutionFormValues => ({
  title: "",
  description: "",
  procedure: "vote",
  type: undefined,
  deadline: "",
  documentIds: [],
});

/**
 * What a stored draft of the form may put back in the fields the generic rule cannot judge: a procedure and a
 * type the form offers, and document ids (the rest are strings, checked by their defaults' type).
 */
export const resolutionDraftChecks: DraftFieldChecks<ResolutionFormValues> = {
  procedure: (value) => typeof value === "string" && (resolutionProcedures as readonly string[]).includes(value),
  type: (value) => value === undefined || (typeof value === "string" && (resolutionTypes as readonly string[]).includes(value)),
  documentIds: (value) => Array.isArray(value) && value.every((id) => Number.isSafeInteger(id) && (id as number) > 0),
};

/** Today as the date input holds it, in the user's time zone. */
export const todayInput = (now: Date) => format(now, DATE_INPUT_FORMAT);

/** The end of the chosen day in the user's time zone: a deadline on a date means until that day is over. */
export function endOfLocalDay(dateValue: string): Date {
  const [year, month, day] = dateValue.split("-").map(Number) as [number, number, number];
  return new Date(year, month - 1, day, 23, 59, 59, 999);
}

export function toCreateResolution(values: ResolutionFormValues): CreateResolutionInput {
  const common = { title: values.title.trim(), description: values.description.trim(), documentIds: values.documentIds };
  if (values.procedure === "written") return { ...common, procedure: "written", status: "pending" };
  return {
    ...common,
    procedure: "vote",
    type: values.type,
    deadline: endOfLocalDay(values.deadline).toISOString(),
    status: "pending",
  };
}

/** When a written resolution proposed at `now` lapses under a rule of `lapseDays`. */
export const lapseTime = (now: Date, lapseDays: number) => new Date(now.getTime() + lapseDays * 86_400_000);

// Re-exported for the dialogs and tests that take them from the form's module.
export {
  certificateCategory,
  certificateLibraryHref,
  markdownSummary,
  matchesResolutionSearch,
  resolutionBadge,
  writtenStatusLabel,
} from "@/features/resolutions/lib/resolution-display";
