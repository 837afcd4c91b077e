import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client";
import { authKeys } from "@/features/auth/api/auth-keys";

/** GET /api/auth/check-platform-admin → {isPlatformAdmin}. A failed check means "not a platform admin" (spec §6). */
export async function checkPlatformAdmin(): Promise<boolean> {
  try {
    const result = await apiJson<{ isPlatformAdmin?: unknown }>("GET", "/api/auth/check-platform-admin");
    return result?.isPlatformAdmin === true;
  } catch {
    return false;
  }
}

export const platformAdminQueryOptions = () => queryOptions({ queryKey: authKeys.platformAdmin(), queryFn: checkPlatformAdmin });

/**
 * `isPlatformAdmin` is true only once the server has confirmed it; `isPending` while the check is
 * still on its way (pages gated on it show "Checking permissions" then). Use it inside the signed-in part of the app.
 */
export function useIsPlatformAdmin(): { isPlatformAdmin: boolean; isPending: boolean } {
  const check = useQuery(platformAdminQueryOptions());
  return { isPlatformAdmin: check.data === true, isPending: check.isPending };
}
