import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SessionsRevoked } from "@shared/account";
import * as api from "@shared/api/account";
import { callApi } from "@/lib/api-client";
import { accountKeys } from "@/features/account/api/account-keys";

/** POST /api/users/:id/sessions/revoke-others: signs out every other session; answers how many. */
export function revokeOtherSessions(userId: number): Promise<SessionsRevoked> {
  return callApi(api.revokeOtherSessions, { params: { id: userId } });
}

export function useRevokeOtherSessions(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => revokeOtherSessions(userId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions(userId) }),
  });
}
