import { useMutation, useQueryClient } from "@tanstack/react-query";
import { withDefaults, type PreferenceKey, type Preferences, type PreferencesUpdate } from "@shared/preferences";
import { toast } from "@/components/ui/use-toast";
import * as api from "@shared/api/account";
import { callApi } from "@/lib/api-client";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { preferenceKeys } from "@/lib/preferences/preference-keys";

export const PREFERENCE_SAVE_FAILED_TEXT = "Your change could not be saved. Please try again.";

/** PUT /api/users/:id/preferences: only the switches given change; answers them all. */
export async function updatePreferences(userId: number, changes: PreferencesUpdate): Promise<Preferences> {
  return withDefaults(await callApi(api.updatePreferences, { params: { id: userId }, body: changes }));
}

/**
 * Flips one switch at once (optimistically: the screen and whatever the switch drives change before the
 * server answers), saves it, and on failure puts it back and says so in a toast.
 */
export function useSetPreference() {
  const queryClient = useQueryClient();
  const { user } = useCurrentUser();
  const userId = user?.id ?? 0;
  const key = preferenceKeys.detail(userId);
  const mutation = useMutation({
    mutationFn: ({ name, value }: { name: PreferenceKey; value: boolean }) => updatePreferences(userId, { [name]: value }),
    onMutate: async ({ name, value }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Preferences>(key);
      queryClient.setQueryData<Preferences>(key, (current) => withDefaults({ ...current, [name]: value }));
      return { name, previous: previous?.[name] };
    },
    onError: (_error, _variables, context) => {
      // Only the switch that failed goes back: another one flipped meanwhile keeps its new value.
      if (context && context.previous !== undefined) {
        queryClient.setQueryData<Preferences>(key, (current) => withDefaults({ ...current, [context.name]: context.previous }));
      }
      toast({ title: "Error", description: PREFERENCE_SAVE_FAILED_TEXT, variant: "destructive" });
    },
    onSuccess: (_saved, { name, value }) => {
      // The server's answer may be older than a later flip still in flight: only this switch is taken from it.
      queryClient.setQueryData<Preferences>(key, (current) => withDefaults({ ...current, [name]: value }));
    },
  });
  return { setPreference: (name: PreferenceKey, value: boolean) => mutation.mutate({ name, value }), isSaving: mutation.isPending };
}
