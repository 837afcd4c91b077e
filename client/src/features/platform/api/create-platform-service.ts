import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreatePlatformServiceInput, PlatformService } from "@shared/platform";
import { apiJson } from "@/lib/api-client";
import { platformKeys } from "@/features/platform/api/platform-keys";

export type PlatformServiceBody = Omit<CreatePlatformServiceInput, "isEnabled"> & { isEnabled: boolean };

/** POST /api/platform/settings → the new service (key masked). */
export function createPlatformService(body: PlatformServiceBody): Promise<PlatformService> {
  return apiJson<PlatformService>("POST", "/api/platform/settings", body);
}

export function useCreatePlatformService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPlatformService,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: platformKeys.list() }),
  });
}
