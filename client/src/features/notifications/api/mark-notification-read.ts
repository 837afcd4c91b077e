import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/notifications";
import type { AppNotification } from "@shared/notifications";
import { callApi } from "@/lib/api-client";
import { notificationKeys } from "@/features/notifications/api/notification-keys";

/** POST /api/notifications/:id/read. */
export function markNotificationRead(id: number): Promise<void> {
  return callApi(api.markNotificationRead, { params: { id } });
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
