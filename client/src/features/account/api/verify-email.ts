import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { User } from "@shared/auth";
import * as api from "@shared/api/identity";
import { callApi } from "@/lib/api-client";
import { getAuthToken } from "@/lib/auth-token";
import { authKeys } from "@/lib/auth/auth-keys";

/** POST /api/auth/verify-email {token}: proves the address the link was sent to; answers the account's user object. */
export function verifyEmail(token: string): Promise<User> {
  return callApi(api.verifyEmail, { body: { token } });
}

/** Following the link; signed in, the current user (its address, its banner) is read again. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: () => (getAuthToken() === null ? undefined : queryClient.invalidateQueries({ queryKey: authKeys.user(), exact: true })),
  });
}

/** POST /api/auth/verify-email/resend → 202 {message}: a new link to the address waiting for its proof. */
export function resendVerification(): Promise<{ message: string }> {
  return callApi(api.resendVerification);
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
