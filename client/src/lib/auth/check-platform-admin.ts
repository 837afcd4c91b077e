import { queryOptions, useQuery } from "@tanstack/react-query";
import * as api from "@shared/api/auth";
import { callApi } from "@/lib/api-client";
import { authKeys } from "@/lib/auth/auth-keys";
import { useFirstScreenDrawn } from "@/lib/first-screen";

/**
 * GET /api/auth/check-platform-admin → {isPlatformAdmin}. A failed check counts as "not a platform admin":
 * the screens never open platform administration on a guess.
 */
export async function checkPlatformAdmin(): Promise<boolean> {
  try {
    return (await callApi(api.checkPlatformAdmin)).isPlatformAdmin === true;
  } catch {
    return false;
  }
}

export const platformAdminQueryOptions = () => queryOptions({ queryKey: authKeys.platformAdmin(), queryFn: checkPlatformAdmin });

/**
 * The platform-admin flag as the server confirms it (never as the cached user object claims it), shaped
 * like the account so `canAdministerPlatform` from shared/permissions can judge it. `isPlatformAdmin` is true
 * only once the server has said so; `isPending` while the check is on its way (pages gated on it show
 * "Checking permissions" then). Use it inside the signed-in part of the app. Asked once the first screen is drawn.
 */
export function useIsPlatformAdmin(): { isPlatformAdmin: boolean; isPending: boolean } {
  const check = useQuery({ ...platformAdminQueryOptions(), enabled: useFirstScreenDrawn() });
  return { isPlatformAdmin: check.data === true, isPending: check.isPending };
}
