import { queryOptions, useQuery, type QueryClient } from "@tanstack/react-query";
import type { User } from "@shared/auth";
import * as api from "@shared/api/auth";
import { ApiError, callApi, isReauthRequired, readJson, throwIfResNotOk } from "@/lib/api-client";
import { clearAuthToken, getAuthToken, useAuthToken } from "@/lib/auth-token";
import { EARLY_CURRENT_USER } from "@/lib/auth-token-key";
import { authKeys } from "@/lib/auth/auth-keys";

/**
 * The preload script's request for the current user, taken once: only if it was sent with the token stored now
 * (the first ask of a page load takes it; any later one asks the server again).
 */
function takeEarlyRequest(): Promise<Response> | undefined {
  const holder = window as unknown as Record<string, { token: string; response: Promise<Response> } | false | undefined>;
  const early = holder[EARLY_CURRENT_USER];
  // From now on the preload script sends nothing if it runs (with the app's files cached, it can run after the app).
  holder[EARLY_CURRENT_USER] = false;
  if (!early) return undefined;
  if (early.token === getAuthToken()) return early.response;
  // Sent with another token, so not this user's answer: its body is dropped, which ends the request.
  early.response.then((response) => response.body?.cancel()).catch(() => undefined);
  return undefined;
}

/** The current user from the preload script's request if there is one, else from a request of its own. */
async function requestCurrentUser(): Promise<User> {
  const early = takeEarlyRequest();
  if (early) {
    // A request that did not get through (a network error) is simply asked again.
    const response = await early.catch(() => undefined);
    if (response) {
      await throwIfResNotOk(response);
      return readJson<User>(response);
    }
  }
  return callApi(api.currentUser);
}

/** GET /api/auth/user. A 401 means the stored token is no good: it is dropped and there is no user. */
export async function getCurrentUser(): Promise<User | null> {
  try {
    return await requestCurrentUser();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      clearAuthToken();
      return null;
    }
    throw new Error("Failed to fetch user data", { cause: error });
  }
}

export const currentUserQueryOptions = () => queryOptions({ queryKey: authKeys.user(), queryFn: getCurrentUser });

/**
 * The signed-in user. Requested only while a token is stored; a 401 or any other failure counts as
 * no user, so the visitor sees the sign-in page. `isLoading` is true only while that request is in flight.
 */
export function useCurrentUser(): { user: User | null; isLoading: boolean } {
  const token = useAuthToken();
  const query = useQuery({ ...currentUserQueryOptions(), enabled: token !== null });
  if (token === null) return { user: null, isLoading: false };
  return { user: query.data ?? null, isLoading: query.isPending };
}

/**
 * Any other request answered 401 may mean the session has ended (revoked, expired, signed out in another tab): the
 * current user is asked again, and its 401 signs the visitor out. A 401 asking for a fresh proof is not one of those:
 * the session stands, and the call asks for the password instead.
 */
export function recheckSessionAfter(queryClient: QueryClient, error: unknown): void {
  if (!(error instanceof ApiError) || error.status !== 401 || isReauthRequired(error)) return;
  if (getAuthToken() === null) return;
  void queryClient.invalidateQueries({ queryKey: authKeys.user(), exact: true });
}
