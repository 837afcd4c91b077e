import { z } from "zod";
import { answer } from "./answer";
import { dateInput, id, integer, isoTimestamp, limits, text, timeInput } from "./input";
import { locationField, maxAgendaLength, maxAgendaLengthText, titleField } from "./meeting-fields";
import { agendaPurposes } from "./meeting-model";

// A meeting's agenda: an ordered list of items, each with its presenter, its length and its papers (documents of
// the library) and the resolutions it will take. The agenda text a meeting's content carries is these items
// written as a numbered list (formatAgendaItems), and that list parses back into them (parseAgendaText).

export const agendaLimits = {
  items: 50,
  title: limits.title,
  description: 2_000,
  minMinutes: 1,
  maxMinutes: 480,
  /** Papers and resolutions attached to one item. */
  attachments: 50,
  /** The items written as the meeting's agenda text (formatAgendaItems), all told. */
  text: maxAgendaLength,
} as const;

const attachmentIds = (what: string) =>
  z
    .array(id(`${what} must be ids`), { message: `${what} must be a list of ids` })
    .max(agendaLimits.attachments, `At most ${agendaLimits.attachments} ${what.toLowerCase()} on one item`);

/** One item of `PUT /api/meetings/:id/agenda`; an `id` of an existing item keeps that item's identity. */
export const agendaItemInputSchema = z.object({
  id: z.optional(id("Item id must be an id")),
  title: text({
    max: agendaLimits.title,
    min: 1,
    requiredMessage: "Item title is required",
    maxMessage: `Item title must be at most ${agendaLimits.title} characters`,
    // One line: the numbered agenda text gives each item's title one line.
    singleLine: true,
  }),
  presenterId: z.nullish(id("Presenter must be a member's id")),
  durationMinutes: integer({
    min: agendaLimits.minMinutes,
    max: agendaLimits.maxMinutes,
    message: `Duration must be a whole number of minutes from ${agendaLimits.minMinutes} to ${agendaLimits.maxMinutes}`,
  }),
  description: z._default(
    z.nullish(
      text({
        max: agendaLimits.description,
        maxMessage: `Description must be at most ${agendaLimits.description.toLocaleString("en-US")} characters`,
      }),
    ),
    "",
  ),
  purpose: z._default(z.enum(agendaPurposes, { error: "Purpose must be decision, discussion or noting" }), "discussion"),
  documentIds: z._default(attachmentIds("Documents"), []),
  resolutionIds: z._default(attachmentIds("Resolutions"), []),
});
export type AgendaItemInput = z.input<typeof agendaItemInputSchema>;
export type AgendaItemValues = z.output<typeof agendaItemInputSchema>;

/**
 * The whole agenda, in order. Naming one item id twice, or one paper twice on an item, is refused, and so are
 * items whose agenda text (the meeting's content and calendar description) would outgrow what a typed one may be.
 */
export const agendaInputSchema = z.object({
  items: z
    .array(agendaItemInputSchema, { message: "Items must be a list" })
    .max(agendaLimits.items, `An agenda has at most ${agendaLimits.items} items`)
    .superRefine((items, context) => {
      const seen = new Set<number>();
      items.forEach((item, index) => {
        if (item.id === undefined) return;
        if (seen.has(item.id)) context.addIssue({ code: "custom", message: "An item is named twice", path: [index, "id"] });
        seen.add(item.id);
      });
      items.forEach((item, index) => {
        for (const field of ["documentIds", "resolutionIds"] as const) {
          if (new Set(item[field]).size !== item[field].length) {
            context.addIssue({ code: "custom", message: "An item lists the same attachment twice", path: [index, field] });
          }
        }
      });
      const written = formatAgendaItems(items.map((item) => ({ ...item, description: item.description ?? "" })));
      if (written.length > agendaLimits.text) {
        context.addIssue({ code: "custom", message: `The agenda is too long: at most ${maxAgendaLengthText} characters in all`, path: [] });
      }
    }),
});
export type AgendaInput = z.input<typeof agendaInputSchema>;

export const agendaItemSchema = answer.object({
  id: answer.number().int(),
  title: answer.string(),
  presenterId: answer.number().int().nullable(),
  durationMinutes: answer.number().int(),
  description: answer.string(),
  purpose: answer.enum(agendaPurposes),
  documentIds: answer.array(answer.number().int()),
  resolutionIds: answer.array(answer.number().int()),
  /** The meeting's start plus the durations of the items before this one (ISO). */
  startsAt: answer.string(),
});
export type AgendaItem = z.infer<typeof agendaItemSchema>;

export const agendaSchema = answer.object({ items: answer.array(agendaItemSchema) });
export type Agenda = z.infer<typeof agendaSchema>;

// --- The agenda as text ---

/** What an agenda text turns into before it is stored: items without ids or attachments. */
export interface ParsedAgendaItem {
  title: string;
  durationMinutes: number;
  description: string;
}

/** "N. title (duration min)", the description on the lines after it, a blank line between items. */
export function formatAgendaItems(items: readonly ParsedAgendaItem[]): string {
  return items
    .map((item, index) => {
      const heading = `${index + 1}. ${item.title} (${item.durationMinutes} min)`;
      return item.description ? `${heading}\n${item.description}` : heading;
    })
    .join("\n\n");
}

const headingPattern = /^(\d{1,2})\.\s+(.+?)\s+\((\d{1,3})\s*min\)$/;

/** `value` cut to `max` characters, ending in an ellipsis when cut. */
function clip(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1).trimEnd()}…`;
}

/**
 * Items from an agenda text. The numbered list formatAgendaItems writes (and 'Generate with AI' fills the
 * form with) parses back into its items; any other non-empty text becomes one item whose title is its first
 * line and whose description is the rest. `fallbackMinutes` is that one item's length. Nothing for blank text.
 */
export function parseAgendaText(agenda: string, fallbackMinutes: number): ParsedAgendaItem[] {
  const textValue = agenda.replace(/\r\n?/g, "\n").trim();
  if (!textValue) return [];
  const blocks = textValue.split(/\n\s*\n/);
  const items: ParsedAgendaItem[] = [];
  for (const [index, block] of blocks.entries()) {
    const [heading = "", ...rest] = block.trim().split("\n");
    const match = headingPattern.exec(heading.trim());
    const minutes = match ? Number(match[3]) : 0;
    const description = rest.join("\n").trim();
    const numberedInOrder = match !== null && Number(match[1]) === index + 1;
    if (
      !numberedInOrder ||
      minutes < agendaLimits.minMinutes ||
      minutes > agendaLimits.maxMinutes ||
      match[2]!.length > agendaLimits.title ||
      description.length > agendaLimits.description
    ) {
      items.length = 0;
      break;
    }
    items.push({ title: match[2]!, durationMinutes: minutes, description });
  }
  if (items.length > 0 && items.length <= agendaLimits.items) return items;

  const [firstLine = "", ...others] = textValue.split("\n");
  return [
    {
      title: clip(firstLine.trim() || "Agenda", agendaLimits.title),
      durationMinutes: Math.min(Math.max(Math.round(fallbackMinutes), agendaLimits.minMinutes), agendaLimits.maxMinutes),
      description: clip(others.join("\n").trim(), agendaLimits.description),
    },
  ];
}

// --- The meeting's lifecycle ---

/** `PATCH /api/meetings/:id`: confirm, cancel or reschedule (a new date, time, place or title). */
export const meetingUpdateSchema = z
  .object({
    status: z.optional(z.enum(["confirmed", "cancelled"], { message: "Status must be confirmed or cancelled" })),
    date: z.optional(isoTimestamp("Date must be an ISO date and time")),
    endDate: z.optional(isoTimestamp("End date must be an ISO date and time")),
    location: z.optional(locationField),
    title: z.optional(titleField()),
  })
  .refine((update) => Object.values(update).some((value) => value !== undefined), { message: "Nothing to change" });
export type MeetingUpdateInput = z.input<typeof meetingUpdateSchema>;
export type MeetingUpdate = z.output<typeof meetingUpdateSchema>;

/** The reschedule form's values (a date and a time in the user's zone, and the place). */
export const rescheduleFormSchema = z.object({
  date: dateInput("Date is required"),
  time: timeInput("Time is required"),
  location: locationField,
});
export type RescheduleFormValues = z.infer<typeof rescheduleFormSchema>;
