import { z } from "zod";
import { answer } from "./answer";
import { searchLanguages } from "./governance-options";
import { dateInput, id, text, token } from "./input";

export { searchLanguages } from "./governance-options";
export type { SearchLanguage } from "./governance-options";

// One search over a board's record: papers (page by page), minutes, resolutions, agenda items, action items and
// meetings, in the caller's companies only.

export const searchKinds = ["document", "minutes", "resolution", "agendaItem", "actionItem", "meeting"] as const;
export type SearchKind = (typeof searchKinds)[number];

export const searchKindLabels: Record<SearchKind, string> = {
  document: "Papers",
  minutes: "Minutes",
  resolution: "Resolutions",
  agendaItem: "Agenda items",
  actionItem: "Action items",
  meeting: "Meetings",
};

export const searchScopes = ["company", "all"] as const;
export type SearchScope = (typeof searchScopes)[number];

export const maxSearchQueryLength = 500;
export const searchPageSize = 20;
/**
 * A search ranks at most this many pages of papers, the newest papers' first: a word on most of a large record's
 * pages would otherwise cost a read of all of them. Past it, the answer says so and the caller can narrow the search.
 */
export const maxPagesRanked = 2_000;
export const morePagesMatchedMessage = `These words are on more than ${maxPagesRanked.toLocaleString("en")} pages of papers, so only the newest papers were ranked. Add a word, or narrow the search by kind, meeting or dates.`;
/** At most this many papers the search could not look into are named with a page of results. */
export const maxUnsearchedListed = 20;

export const emptySearchMessage = "Type something to search for";
export const searchTooLongMessage = `A search is at most ${maxSearchQueryLength} characters`;

export const searchQuerySchema = z.object({
  q: text({ max: maxSearchQueryLength, min: 1, requiredMessage: emptySearchMessage, maxMessage: searchTooLongMessage }),
  scope: z.optional(z.enum(searchScopes, { message: "Scope must be company or all" })),
  kind: z.optional(z.enum(searchKinds, { message: "Unknown kind of result" })),
  meetingId: z.optional(id("Meeting must be a meeting's id")),
  from: z.optional(dateInput("From must be a date")),
  to: z.optional(dateInput("To must be a date")),
  cursor: z.optional(token("The cursor is not one this search gave")),
});
export type SearchQuery = z.input<typeof searchQuerySchema>;

export const searchResultSchema = answer.object({
  kind: answer.enum(searchKinds),
  id: answer.number().int(),
  companyId: answer.number().int(),
  /** The company's name, so a result from another board says whose it is. */
  companyName: answer.string(),
  title: answer.string(),
  /** HTML-escaped text in which only <mark> and </mark> are markup. */
  snippet: answer.string(),
  /** A paper's page the words were found on. */
  page: answer.number().int().nullable().optional(),
  meetingId: answer.number().int().nullable().optional(),
  /** When the thing happened or was made, ISO 8601. */
  at: answer.string(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/** Why a paper was not searched: a scanned file with no text layer, text not read yet, or text that could not be read. */
export const unsearchedReasons = ["scanned", "pending", "failed"] as const;
export type UnsearchedReason = (typeof unsearchedReasons)[number];
export const unsearchedReasonLabels: Record<UnsearchedReason, string> = {
  scanned: "no text (scanned)",
  pending: "text not read yet",
  failed: "text could not be read",
};

export const searchPageSchema = answer.object({
  results: answer.array(searchResultSchema),
  nextCursor: answer.string().nullable(),
  /** More pages of papers matched than a search ranks (`maxPagesRanked`): only the newest papers' were ranked. */
  morePagesMatched: answer.boolean(),
  unsearched: answer.array(
    answer.object({ documentId: answer.number().int(), title: answer.string(), reason: answer.enum(unsearchedReasons) }),
  ),
});
export type SearchPage = z.infer<typeof searchPageSchema>;

/** The search field of a company's settings form; absent, it is left as it is. */
export const searchSettingsFields = {
  searchLanguage: z.optional(z.enum(searchLanguages, { message: "Choose a language the search knows" })),
};
export const searchSettingsAnswerFields = {
  searchLanguage: answer.enum(searchLanguages),
};
