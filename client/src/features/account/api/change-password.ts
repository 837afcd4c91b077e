import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PasswordChange } from "@shared/account";
import * as api from "@shared/api/account";
import { callApi } from "@/lib/api-client";
import { accountKeys } from "@/features/account/api/account-keys";

/** PATCH /api/users/:id/password. Every other session of the user ends; this one stays signed in. */
export async function changePassword(userId: number, body: PasswordChange): Promise<void> {
  await callApi(api.changePassword, { params: { id: userId }, body });
}

export function useChangePassword(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PasswordChange) => changePassword(userId, body),
    // The other sessions are gone: the list is read again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions(userId) }),
  });
}
