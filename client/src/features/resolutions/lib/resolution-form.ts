import { format } from "date-fns";
import { z } from "zod";
import { dateInput } from "@shared/input";
import {
  createResolutionSchema,
  resolutionTypes,
  type CreateResolutionInput,
  type Resolution,
  type ResolutionTab,
} from "@shared/resolutions";
import { DATE_INPUT_FORMAT } from "@/lib/format";
import type { DraftFieldChecks } from "@/lib/use-form-draft";

export const MISSING_TITLE = "Missing information";
export const MISSING_TEXT = "Please fill in all the required fields.";
export const CREATE_FAILED_TEXT = "Failed to create resolution. Please try again.";
export const VOTE_FAILED_TEXT = "Failed to submit vote. Please try again.";
export const DEADLINE_PAST_MESSAGE = "The deadline cannot be before today";

/** The New Resolution form: the title and description as the server takes them, a type, a deadline date and the papers. */
export const resolutionFormSchema = createResolutionSchema.pick({ title: true, description: true }).extend({
  type: z.enum(resolutionTypes, { message: "Type is required" }),
  deadline: dateInput("Deadline is required"),
  documentIds: z.array(z.number()),
});
export type ResolutionFormValues = z.input<typeof resolutionFormSchema>;

export const emptyResolutionForm = (): ResolutionFormValues => ({
  title: "",
  description: "",
  type: undefined as unknown as ResolutionFormValues["type"],
  deadline: "",
  documentIds: [],
});

/**
 * What a stored draft of the form may put back in the fields the generic rule cannot judge: a type the
 * select offers, and document ids (the rest are strings, checked by their defaults' type).
 */
export const resolutionDraftChecks: DraftFieldChecks<ResolutionFormValues> = {
  type: (value) => typeof value === "string" && (resolutionTypes as readonly string[]).includes(value),
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
  return {
    title: values.title.trim(),
    description: values.description.trim(),
    type: values.type,
    deadline: endOfLocalDay(values.deadline).toISOString(),
    documentIds: values.documentIds,
    status: "pending",
  };
}

/** Search on the title or the description, case-insensitive. */
export function matchesResolutionSearch(resolution: Pick<Resolution, "title" | "description">, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return resolution.title.toLowerCase().includes(needle) || resolution.description.toLowerCase().includes(needle);
}

/** The badge of a resolution on its tab. */
export function resolutionBadge(
  resolution: Pick<Resolution, "status">,
  tab: ResolutionTab,
): { label: string; variant: "success" | "destructive" | "secondary" | "warning" } {
  if (resolution.status === "approved") return { label: "Approved", variant: "success" };
  if (resolution.status === "rejected") return { label: "Rejected", variant: "destructive" };
  if (tab === "expired") return { label: "Expired", variant: "secondary" };
  return { label: "Pending", variant: "warning" };
}
