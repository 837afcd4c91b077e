import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ListedMeeting } from "@shared/meetings";
import { apiJson } from "@/lib/api-client";
import { meetingKeys } from "@/features/meetings/api/meeting-keys";
import { fromListedMeeting, type MeetingSummary } from "@/features/meetings/lib/listed-meeting";

/** GET /api/companies/:companyId/meetings/upcoming → the next meetings, soonest first. */
export function getUpcomingMeetings(companyId: number): Promise<ListedMeeting[]> {
  return apiJson<ListedMeeting[]>("GET", `/api/companies/${companyId}/meetings/upcoming`);
}

export const upcomingMeetingsQueryOptions = (companyId: number | null) =>
  queryOptions({
    queryKey: meetingKeys.upcoming(companyId),
    queryFn: () => getUpcomingMeetings(companyId!),
    enabled: companyId != null,
  });

const toSummaries = (meetings: ListedMeeting[]): MeetingSummary[] => meetings.map(fromListedMeeting);

/** The company's upcoming meetings as the server listed them, soonest first (filter them against now to show them). */
export function useUpcomingMeetings(companyId: number | null) {
  return useQuery({ ...upcomingMeetingsQueryOptions(companyId), select: toSummaries });
}
