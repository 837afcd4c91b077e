import { queryOptions, useQuery } from "@tanstack/react-query";
import type { User } from "@shared/auth";
import { ApiError, apiJson } from "@/lib/api-client";
import { clearAuthToken, useAuthToken } from "@/lib/auth-token";
import { authKeys } from "@/lib/auth/auth-keys";

/** GET /api/auth/user. A 401 means the stored token is no good: it is dropped and there is no user. */
export async function getCurrentUser(): Promise<User | null> {
  try {
    return await apiJson<User>("GET", "/api/auth/user");
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
