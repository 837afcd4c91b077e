import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CalendarFeed } from "@shared/compliance";
import * as api from "@shared/api/compliance";
import { callApi } from "@/lib/api-client";
import { accountKeys } from "@/features/account/api/account-keys";

/** POST /api/users/:id/calendar-feed/rotate?companyId=: every earlier feed address stops working; answers the new one. */
export function rotateCalendarFeed(userId: number, companyId: number): Promise<CalendarFeed> {
  return callApi(api.rotateCalendarFeed, { params: { id: userId }, query: { companyId } });
}

export function useRotateCalendarFeed(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (companyId: number) => rotateCalendarFeed(userId, companyId),
    onSuccess: (feed) => {
      queryClient.setQueryData<CalendarFeed>(accountKeys.calendarFeed(userId, feed.companyId), feed);
      // The addresses of the user's other companies were revoked too: read them again when next shown.
      void queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[2] === "calendar-feed" && query.queryKey[3] === userId && query.queryKey[1] !== feed.companyId,
      });
    },
  });
}
