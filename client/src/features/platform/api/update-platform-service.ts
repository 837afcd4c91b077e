import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PlatformService, UpdatePlatformServiceInput } from "@shared/platform";
import * as api from "@shared/api/platform";
import { callApi } from "@/lib/api-client";
import { platformKeys } from "@/features/platform/api/platform-keys";

/** PUT /api/platform/settings/:id. The masked key (or an empty one) sent back keeps the stored key. */
export function updatePlatformService({ id, body }: { id: number; body: UpdatePlatformServiceInput }): Promise<PlatformService> {
  return callApi(api.updateService, { params: { id }, body });
}

export function useUpdatePlatformService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePlatformService,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: platformKeys.list() }),
  });
}
