import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useLocation } from "wouter";
import * as api from "@shared/api/auth";
import { callApi } from "@/lib/api-client";
import { clearAuthToken } from "@/lib/auth-token";

/** POST /api/auth/logout (revokes the token on the server). */
export function logout(): Promise<void> {
  return callApi(api.logout);
}

/**
 * Signs out: tells the server, then — whether or not that worked — forgets the token,
 * clears every cached query and mutation (nothing of one session may show in the next), and goes to /.
 */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useCallback(async () => {
    try {
      await logout();
    } catch {
      // The token is dropped locally either way; the server expires it on its own.
    } finally {
      clearAuthToken();
      queryClient.clear();
      navigate("/");
    }
  }, [queryClient, navigate]);
}
