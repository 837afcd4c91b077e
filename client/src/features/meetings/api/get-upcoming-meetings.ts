import { queryOptions } from "@tanstack/react-query";
import * as api from "@shared/api/meetings";
import type { ListedMeeting } from "@shared/meetings";
import { callApi } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { meetingKeys } from "@/features/meetings/api/meeting-keys";
import { fromListedMeeting, type MeetingSummary } from "@/features/meetings/lib/listed-meeting";

/** GET /api/companies/:companyId/meetings/upcoming → the next meetings, soonest first. */
export function getUpcomingMeetings(companyId: number): Promise<ListedMeeting[]> {
  return callApi(api.upcomingMeetings, { params: { companyId } });
}

export const upcomingMeetingsQueryOptions = (companyId: number) =>
  queryOptions({ queryKey: meetingKeys.upcoming(companyId), queryFn: () => getUpcomingMeetings(companyId) });

const toSummaries = (meetings: ListedMeeting[]): MeetingSummary[] => meetings.map(fromListedMeeting);

/** The active company's upcoming meetings as the server listed them, soonest first (filter them against now to show them). */
export function useUpcomingMeetings() {
  return useActiveCompanyQuery((companyId) => ({ ...upcomingMeetingsQueryOptions(companyId), select: toSummaries }));
}
