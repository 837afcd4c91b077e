import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { AuthResponse, LoginInput } from "@shared/auth";
import type { LoginAnswer } from "@shared/second-factor";
import * as api from "@shared/api/auth";
import { callApi } from "@/lib/api-client";
import { setAuthToken } from "@/lib/auth-token";
import { authKeys } from "@/lib/auth/auth-keys";

/** POST /api/auth/login {username, password} → the user plus token, or a challenge for the second step. */
export function login(input: LoginInput): Promise<LoginAnswer> {
  return callApi(api.login, { body: { username: input.username, password: input.password } });
}

/**
 * Starts a session from a login or register answer: drops anything cached for a previous
 * session, puts the user into the cache (so no second request is needed) and stores the token.
 * An answer without a token stores the user id in its place, so the app still knows someone is signed in.
 */
export function startSession(queryClient: QueryClient, response: AuthResponse): void {
  const { token, ...user } = response;
  queryClient.removeQueries();
  queryClient.setQueryData(authKeys.user(), user);
  setAuthToken(token || String(user.id));
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    // A second factor due: no session yet; the form asks for the second step.
    onSuccess: (response) => {
      // Checked in place: the module's isSecondFactorChallenge would bring its schemas into the sign-in page's first load.
      if (!("secondFactorRequired" in response)) startSession(queryClient, response);
    },
  });
}
