import { format } from "date-fns";
import { z } from "zod";
import { dateInput } from "@shared/input";
import {
  createResolutionSchema,
  resolutionTypes,
  type CreateResolutionInput,
  type Resolution,
  type ResolutionStatus,
  type ResolutionTab,
} from "@shared/resolutions";
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
  if (resolution.status === "referred") return { label: "Referred to a meeting", variant: "secondary" };
  if (tab === "expired") return { label: "Expired", variant: "secondary" };
  return { label: "Pending", variant: "warning" };
}

/** A decided written resolution's heading: how it ended, as its explanation starts. */
export function writtenStatusLabel(status: ResolutionStatus, explanation: string | null): string {
  if (status === "approved") return "Passed";
  if (status === "referred") return "Referred to a meeting";
  if (status === "rejected") return explanation?.startsWith("Lapsed") ? "Lapsed" : "Rejected";
  return "Open for signatures";
}

/** The library's certificates of written resolutions: its search matches a document's category too. */
export const certificateCategory = "Resolution Certificates";
export const certificateLibraryHref = `/documents?search=${encodeURIComponent(certificateCategory)}`;

/** A written resolution's text in a list: its words without the Markdown's marks (headings, quotes, list markers, bold, code). */
export function markdownSummary(source: string): string {
  return source
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d{1,9}[.)])\s+/gm, "")
    .replace(/\*\*|__|`/g, "")
    .replace(/\s+/g, " ")
    .trim();
}
