import { companyScope } from "@/lib/auth/active-company";

/**
 * Query keys of the meetings feature, company-scoped (under `companyScope.of`): the company id is in
 * every key, so switching company never shows stale rows and marks these stale. The meetings list and a
 * meeting's detail are documents on the wire: their keys are the documents feature's.
 */
export const meetingKeys = {
  all: (companyId: number | null) => [...companyScope.of(companyId), "meetings"] as const,
  /** GET /api/companies/:companyId/meetings/upcoming. */
  upcoming: (companyId: number | null) => [...meetingKeys.all(companyId), "upcoming"] as const,
  /** GET /api/meetings/:id/agenda. */
  agenda: (companyId: number | null, meetingId: number) => [...meetingKeys.all(companyId), "agenda", meetingId] as const,
  /** GET /api/meetings/:id/reading: the caller's own progress through the papers. */
  reading: (companyId: number | null, meetingId: number) => [...meetingKeys.all(companyId), "reading", meetingId] as const,
  /** GET /api/meetings/:id/reading/board: who has opened the pack and each paper. */
  boardReading: (companyId: number | null, meetingId: number) => [...meetingKeys.all(companyId), "board-reading", meetingId] as const,
};
