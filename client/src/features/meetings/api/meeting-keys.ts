import { companyKeys } from "@/features/companies/api/company-keys";

/**
 * Query keys of the meetings feature, all company-scoped (under `companyKeys.scope`): the company id
 * is in every key, so switching company never shows stale rows and marks these stale.
 */
export const meetingKeys = {
  /** GET /api/documents: the active company's documents (meetings are filtered in the browser). */
  documents: (companyId: number | null) => [...companyKeys.scope(companyId), "documents"] as const,
  /** GET /api/documents/:id (the server answers only the active company's documents). */
  document: (companyId: number | null, id: number) => [...companyKeys.scope(companyId), "document", id] as const,
  /** GET /api/companies/:companyId/meetings/upcoming. */
  upcoming: (companyId: number | null) => [...companyKeys.scope(companyId), "meetings", "upcoming"] as const,
};
