import { queryOptions, useQuery } from "@tanstack/react-query";
import { preferenceDefaults, withDefaults, type Preferences } from "@shared/preferences";
import * as api from "@shared/api/account";
import { callApi } from "@/lib/api-client";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { useFirstScreenDrawn } from "@/lib/first-screen";
import { preferenceKeys } from "@/lib/preferences/preference-keys";

/** GET /api/users/:id/preferences: the switches, over their defaults. */
export async function getPreferences(userId: number): Promise<Preferences> {
  return withDefaults(await callApi(api.getPreferences, { params: { id: userId } }));
}

export const preferencesQueryOptions = (userId: number) =>
  queryOptions({ queryKey: preferenceKeys.detail(userId), queryFn: () => getPreferences(userId) });

/**
 * The signed-in user's switches. Until the server has answered (or when it cannot), the defaults;
 * `isLoaded` says whether these are the user's own. Asked once the first screen is drawn.
 */
export function usePreferences(): { preferences: Preferences; isLoaded: boolean } {
  const { user } = useCurrentUser();
  const drawn = useFirstScreenDrawn();
  const query = useQuery({ ...preferencesQueryOptions(user?.id ?? 0), enabled: user != null && drawn });
  return { preferences: query.data ?? preferenceDefaults, isLoaded: query.data !== undefined };
}
