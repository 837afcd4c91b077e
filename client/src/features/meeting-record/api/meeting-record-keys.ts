import { companyScope } from "@/lib/auth/active-company";

/**
 * Query keys of a meeting's record, company-scoped (under `companyScope.of`): a company switch marks them stale.
 * A change to the meeting itself (a live event) marks the whole record stale through `all`.
 */
export const meetingRecordKeys = {
  all: (companyId: number | null) => [...companyScope.of(companyId), "meeting-record"] as const,
  /** GET /api/meetings/:id/attendance. */
  attendance: (companyId: number | null, meetingId: number) => [...meetingRecordKeys.all(companyId), "attendance", meetingId] as const,
  /** GET /api/meetings/:id/minutes. */
  minutes: (companyId: number | null, meetingId: number) => [...meetingRecordKeys.all(companyId), "minutes", meetingId] as const,
  /** GET /api/resolutions/:id, read for its recusals by a show of hands. */
  resolution: (companyId: number | null, resolutionId: number) =>
    [...meetingRecordKeys.all(companyId), "resolution", resolutionId] as const,
};
