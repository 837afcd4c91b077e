import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import type { AppNotification } from "@/features/account/api/get-notifications";
import { notificationKeys } from "@/features/account/api/notification-keys";

/** POST /api/notifications/:id/read. */
export async function markNotificationRead(id: number): Promise<void> {
  await apiRequest("POST", `/api/notifications/${id}/read`);
}

/** Marks one notification read and updates the cached list in place (no refetch). */
export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onSuccess: (_result, id) => {
      const readAt = new Date().toISOString();
      queryClient.setQueryData<AppNotification[]>(notificationKeys.all(), (list) =>
        list?.map((n) => (n.id === id ? { ...n, readAt: n.readAt ?? readAt } : n)),
      );
    },
  });
}
