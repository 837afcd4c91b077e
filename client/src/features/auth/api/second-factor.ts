import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AuthResponse } from "@shared/auth";
import type { SecondFactorLoginInput } from "@shared/second-factor";
import * as api from "@shared/api/second-factor";
import { callApi } from "@/lib/api-client";
import { startSession } from "@/features/auth/api/login";

/** POST /api/auth/login/second-factor {challenge, code}: a code from the app or a recovery code → the user plus token. */
export function loginWithSecondFactor(input: SecondFactorLoginInput): Promise<AuthResponse> {
  return callApi(api.loginSecondFactor, { body: input });
}

/** The second step of a sign-in; a success starts the session, as a sign-in without a second factor does. */
export function useLoginWithSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: loginWithSecondFactor,
    onSuccess: (response) => startSession(queryClient, response),
  });
}
