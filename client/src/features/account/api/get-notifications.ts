import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client";
import { notificationKeys } from "@/features/account/api/notification-keys";

/** One notification as GET /api/notifications lists it (unread ones and those read in the last week, newest first). */
export interface AppNotification {
  id: number;
  kind?: string;
  companyId?: number | null;
  title: string;
  body: string | null;
  link: string | null;
  readAt: string | null;
  createdAt: string;
}

/** GET /api/notifications → the signed-in user's notifications. */
export function getNotifications(): Promise<AppNotification[]> {
  return apiJson<AppNotification[]>("GET", "/api/notifications");
}

/** Polled every minute (and on focus), so what others do reaches the bell without a reload. */
export const notificationsQueryOptions = () =>
  queryOptions({ queryKey: notificationKeys.all(), queryFn: getNotifications, refetchInterval: 60_000 });

export function useNotifications() {
  return useQuery(notificationsQueryOptions());
}
