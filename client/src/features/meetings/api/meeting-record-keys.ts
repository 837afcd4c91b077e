import { meetingKeys } from "@/features/meetings/api/meeting-keys";

/** Query keys of a meeting's record, under the meetings feature's company-scoped keys. */
export const meetingRecordKeys = {
  /** GET /api/meetings/:id/attendance. */
  attendance: (companyId: number | null, meetingId: number) => [...meetingKeys.all(companyId), "attendance", meetingId] as const,
  /** GET /api/meetings/:id/minutes. */
  minutes: (companyId: number | null, meetingId: number) => [...meetingKeys.all(companyId), "minutes", meetingId] as const,
};
