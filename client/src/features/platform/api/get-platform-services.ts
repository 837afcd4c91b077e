import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PlatformService } from "@shared/platform";
import * as api from "@shared/api/platform";
import { callApi } from "@/lib/api-client";
import { platformKeys } from "@/features/platform/api/platform-keys";

/** GET /api/platform/settings → the services, keys masked. */
export function getPlatformServices(): Promise<PlatformService[]> {
  return callApi(api.listServices);
}

export const platformServicesQueryOptions = () => queryOptions({ queryKey: platformKeys.list(), queryFn: getPlatformServices });

/** The list, fetched only while `enabled` (the platform-settings page or tab is active, for a platform admin). */
export function usePlatformServices({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...platformServicesQueryOptions(), enabled });
}
