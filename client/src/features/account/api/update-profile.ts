import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProfileUpdate } from "@shared/account";
import type { User } from "@shared/auth";
import { apiRequest } from "@/lib/api-client";
import { authKeys } from "@/lib/auth/auth-keys";

/** PATCH /api/users/:id: the caller's names, e-mail and photo. Answers the user object, or undefined for an empty answer. */
export async function updateProfile(userId: number, changes: ProfileUpdate): Promise<User | undefined> {
  const response = await apiRequest("PATCH", `/api/users/${userId}`, changes);
  const text = await response.text();
  try {
    return text ? (JSON.parse(text) as User) : undefined;
  } catch {
    // An answer that is not JSON still means the change was made.
    return undefined;
  }
}

/** Saves the profile; the signed-in user (sidebar, header) shows the change at once, then is read again. */
export function useUpdateProfile(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: ProfileUpdate) => updateProfile(userId, changes),
    onSuccess: async (updated) => {
      if (updated) queryClient.setQueryData<User>(authKeys.user(), updated);
      await queryClient.invalidateQueries({ queryKey: authKeys.user(), exact: true });
    },
  });
}
