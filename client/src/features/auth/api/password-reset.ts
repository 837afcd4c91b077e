import { useMutation } from "@tanstack/react-query";
import type { PasswordResetConfirm } from "@shared/identity";
import * as api from "@shared/api/identity";
import { callApi } from "@/lib/api-client";

/** POST /api/auth/password-reset {email} → 202: the same answer whether or not an account holds the address. */
export function requestPasswordReset(email: string): Promise<{ message: string }> {
  return callApi(api.requestPasswordReset, { body: { email } });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

/** POST /api/auth/password-reset/confirm {token, newPassword}: every session of the account ends. */
export function confirmPasswordReset(input: PasswordResetConfirm): Promise<{ message: string }> {
  return callApi(api.confirmPasswordReset, { body: input });
}

export function useConfirmPasswordReset() {
  return useMutation({ mutationFn: confirmPasswordReset });
}
