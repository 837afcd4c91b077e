import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProfileUpdate } from "@shared/account";
import type { User } from "@shared/auth";
import * as api from "@shared/api/account";
import { callApi } from "@/lib/api-client";
import { authKeys } from "@/lib/auth/auth-keys";

/** PATCH /api/users/:id: the caller's names, e-mail and photo. Answers the user object. */
export function updateProfile(userId: number, changes: ProfileUpdate): Promise<User> {
  return callApi(api.updateProfile, { params: { id: userId }, body: changes });
}

/** Saves the profile; the signed-in user (sidebar, header) shows the change at once, then is read again. */
export function useUpdateProfile(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: ProfileUpdate) => updateProfile(userId, changes),
    onSuccess: async (updated) => {
      queryClient.setQueryData<User>(authKeys.user(), updated);
      await queryClient.invalidateQueries({ queryKey: authKeys.user(), exact: true });
    },
  });
}
