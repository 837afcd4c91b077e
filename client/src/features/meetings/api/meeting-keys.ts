import { companyScope } from "@/lib/auth/active-company";

/**
 * Query keys of the meetings feature, company-scoped (under `companyScope.of`): the company id is in
 * every key, so switching company never shows stale rows and marks these stale. The meetings list and a
 * meeting's detail are documents on the wire: their keys are the documents feature's.
 */
export const meetingKeys = {
  /** GET /api/companies/:companyId/meetings/upcoming. */
  upcoming: (companyId: number | null) => [...companyScope.of(companyId), "meetings", "upcoming"] as const,
};
