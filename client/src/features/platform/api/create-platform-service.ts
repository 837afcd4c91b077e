import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreatePlatformServiceInput, PlatformService } from "@shared/platform";
import * as api from "@shared/api/platform";
import { callApi } from "@/lib/api-client";
import { platformKeys } from "@/features/platform/api/platform-keys";

export type PlatformServiceBody = Omit<CreatePlatformServiceInput, "isEnabled"> & { isEnabled: boolean };

/** POST /api/platform/settings → the new service (key masked). */
export function createPlatformService(body: PlatformServiceBody): Promise<PlatformService> {
  return callApi(api.createService, { body });
}

export function useCreatePlatformService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPlatformService,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: platformKeys.list() }),
  });
}
