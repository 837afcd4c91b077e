import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { platformKeys } from "@/features/platform/api/platform-keys";

/** DELETE /api/platform/settings/:id (204). */
export async function deletePlatformService(id: number): Promise<void> {
  await apiRequest("DELETE", `/api/platform/settings/${id}`);
}

export function useDeletePlatformService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePlatformService,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: platformKeys.list() }),
  });
}
