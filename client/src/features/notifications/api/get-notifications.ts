import { queryOptions, useQuery } from "@tanstack/react-query";
import * as api from "@shared/api/notifications";
import type { AppNotification } from "@shared/notifications";
import { callApi } from "@/lib/api-client";
import { useFirstScreenDrawn } from "@/lib/first-screen";
import { notificationKeys } from "@/features/notifications/api/notification-keys";

/** GET /api/notifications → the signed-in user's unread notifications and those read in the last week, newest first. */
export function getNotifications(): Promise<AppNotification[]> {
  return callApi(api.listNotifications);
}

/** Polled every minute (and on focus), so what others do reaches the bell without a reload. */
export const notificationsQueryOptions = () =>
  queryOptions({ queryKey: notificationKeys.all(), queryFn: getNotifications, refetchInterval: 60_000 });

export function useNotifications() {
  // Once the first screen is drawn: the bell's count can wait for it.
  return useQuery({ ...notificationsQueryOptions(), enabled: useFirstScreenDrawn() });
}
