import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import type { AppNotification } from "@/features/account/api/get-notifications";
import { notificationKeys } from "@/features/account/api/notification-keys";

/** POST /api/notifications/read-all. */
export async function markAllNotificationsRead(): Promise<void> {
  await apiRequest("POST", "/api/notifications/read-all");
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
