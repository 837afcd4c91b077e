import type { AgendaInput, AgendaItem } from "@shared/agenda";
import type { AgendaPurpose } from "@shared/meeting-model";

// The agenda editor's working copy, kept free of zod: the view and the page read these helpers too.

/** One item as the editor holds it: the duration as typed, and a key that stays with the item as it moves. */
export interface DraftItem {
  key: string;
  /** The saved item's id; none for an item added in this edit. */
  id?: number;
  title: string;
  presenterId: number | null;
  durationMinutes: string;
  description: string;
  purpose: AgendaPurpose;
  documentIds: number[];
  resolutionIds: number[];
}

/** A new item's length until the editor changes it. */
export const defaultItemMinutes = 15;

let nextKey = 0;
const newKey = () => `draft-${++nextKey}`;

export function toDraftItems(items: readonly AgendaItem[]): DraftItem[] {
  return items.map((item) => ({
    key: `item-${item.id}`,
    id: item.id,
    title: item.title,
    presenterId: item.presenterId,
    durationMinutes: String(item.durationMinutes),
    description: item.description,
    purpose: item.purpose,
    documentIds: [...item.documentIds],
    resolutionIds: [...item.resolutionIds],
  }));
}

export function blankDraftItem(): DraftItem {
  return {
    key: newKey(),
    title: "",
    presenterId: null,
    durationMinutes: String(defaultItemMinutes),
    description: "",
    purpose: "discussion",
    documentIds: [],
    resolutionIds: [],
  };
}

/** A duration as typed: a whole number, or NaN (refused by validation) for anything else. */
function minutesOf(typed: string): number {
  const trimmed = typed.trim();
  return /^\d{1,6}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** The PUT body: the items in their order, each saved item with its id. */
export function toAgendaInput(items: readonly DraftItem[]): AgendaInput {
  return {
    items: items.map((item) => ({
      ...(item.id !== undefined ? { id: item.id } : {}),
      title: item.title.trim(),
      presenterId: item.presenterId,
      durationMinutes: minutesOf(item.durationMinutes),
      description: item.description.trim(),
      purpose: item.purpose,
      documentIds: item.documentIds,
      resolutionIds: item.resolutionIds,
    })),
  };
}

/** `items` with the one at `from` moved to `to` (both within the list; otherwise the list as it was). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return [...items];
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

/** The fields of an item an error can name. */
export type ItemField = "id" | "title" | "presenterId" | "durationMinutes" | "description" | "purpose" | "documentIds" | "resolutionIds";

export interface AgendaErrors {
  /** By item key, then by field: the first message for each. */
  items: Record<string, Partial<Record<ItemField, string>>>;
  /** Errors that name no item's field (the list itself). */
  general: string[];
}

export const noAgendaErrors: AgendaErrors = { items: {}, general: [] };

const itemFields = new Set<string>([
  "id",
  "title",
  "presenterId",
  "durationMinutes",
  "description",
  "purpose",
  "documentIds",
  "resolutionIds",
]);

/**
 * Errors of the error body (`[{path: "items.2.durationMinutes", message}]`) sorted by item and field. The index
 * is a position in the list that was sent, whose keys are `sentKeys`: the errors stay with their items when the
 * list is reordered afterwards. A path into a field's list (`items.0.documentIds.3`) counts for that field;
 * anything else is general.
 */
export function agendaErrorsFrom(errors: readonly { path: string; message: string }[], sentKeys: readonly string[]): AgendaErrors {
  const result: AgendaErrors = { items: {}, general: [] };
  for (const { path, message } of errors) {
    const [root, index, field] = path.split(".");
    const key = root === "items" && index !== undefined && /^\d+$/.test(index) ? sentKeys[Number(index)] : undefined;
    if (key !== undefined && field !== undefined && itemFields.has(field)) {
      const fields = (result.items[key] ??= {});
      fields[field as ItemField] ??= message;
    } else if (!result.general.includes(message)) {
      result.general.push(message);
    }
  }
  return result;
}

/** The errors without one item's field (the editor drops an error once its field is changed). */
export function withoutFieldError(errors: AgendaErrors, key: string, field: ItemField): AgendaErrors {
  const fields = errors.items[key];
  if (!fields?.[field]) return errors;
  const { [field]: _dropped, ...rest } = fields;
  const items = { ...errors.items };
  if (Object.keys(rest).length > 0) items[key] = rest;
  else delete items[key];
  return { ...errors, items };
}

export const hasAgendaErrors = (errors: AgendaErrors) => errors.general.length > 0 || Object.keys(errors.items).length > 0;

/** The end of an item that starts at `startsAt` and lasts `minutes`. */
export const itemEnd = (startsAt: string | Date, minutes: number) => new Date(new Date(startsAt).getTime() + minutes * 60_000);
