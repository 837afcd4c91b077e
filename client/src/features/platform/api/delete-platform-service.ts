import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/platform";
import { callApi } from "@/lib/api-client";
import { platformKeys } from "@/features/platform/api/platform-keys";

/** DELETE /api/platform/settings/:id (204). */
export function deletePlatformService(id: number): Promise<void> {
  return callApi(api.deleteService, { params: { id } });
}

export function useDeletePlatformService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePlatformService,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: platformKeys.list() }),
  });
}
