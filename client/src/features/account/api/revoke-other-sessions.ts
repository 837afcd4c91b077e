import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client";
import { accountKeys } from "@/features/account/api/account-keys";

/** POST /api/users/:id/sessions/revoke-others: signs out every other session; answers how many. */
export function revokeOtherSessions(userId: number): Promise<{ revoked: number }> {
  return apiJson<{ revoked: number }>("POST", `/api/users/${userId}/sessions/revoke-others`);
}

export function useRevokeOtherSessions(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => revokeOtherSessions(userId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions(userId) }),
  });
}
