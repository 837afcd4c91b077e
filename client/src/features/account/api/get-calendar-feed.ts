import { queryOptions } from "@tanstack/react-query";
import type { CalendarFeed } from "@shared/compliance";
import * as api from "@shared/api/compliance";
import { callApi } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { accountKeys } from "@/features/account/api/account-keys";

/** GET /api/users/:id/calendar-feed?companyId=: the user's private subscribe address for that company's calendar. */
export function getCalendarFeed(userId: number, companyId: number): Promise<CalendarFeed> {
  return callApi(api.getCalendarFeed, { params: { id: userId }, query: { companyId } });
}

export const calendarFeedQueryOptions = (userId: number, companyId: number) =>
  queryOptions({ queryKey: accountKeys.calendarFeed(userId, companyId), queryFn: () => getCalendarFeed(userId, companyId) });

/** The feed address for the active company; waits (fetching nothing) while the user has no company. */
export function useCalendarFeed(userId: number) {
  return useActiveCompanyQuery((companyId) => calendarFeedQueryOptions(userId, companyId));
}
