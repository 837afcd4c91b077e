import * as api from "@shared/api/platform";

/** Query keys of the platform feature. */
export const platformKeys = {
  all: () => [api.listServices.path] as const,
  /** GET /api/platform/settings: every platform service (platform admins only). */
  list: () => [...platformKeys.all()] as const,
};
