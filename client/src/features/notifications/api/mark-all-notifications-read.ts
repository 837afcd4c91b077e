import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/notifications";
import type { AppNotification } from "@shared/notifications";
import { callApi } from "@/lib/api-client";
import { notificationKeys } from "@/features/notifications/api/notification-keys";

/** POST /api/notifications/read-all. */
export function markAllNotificationsRead(): Promise<void> {
  return callApi(api.markAllNotificationsRead);
}

/** Marks every notification read and updates the cached list in place (no refetch). */
export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onSuccess: () => {
      const readAt = new Date().toISOString();
      queryClient.setQueryData<AppNotification[]>(notificationKeys.all(), (list) => list?.map((n) => (n.readAt ? n : { ...n, readAt })));
    },
  });
}
