import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AuthResponse, RegisterInput } from "@shared/auth";
import * as api from "@shared/api/auth";
import { callApi } from "@/lib/api-client";
import { startSession } from "@/features/auth/api/login";

/**
 * POST /api/auth/register; whoever registers founds their own board, so the form always asks for the founder role.
 * With an invitation's token and the invited address, the account joins that company (the answer names it).
 */
export function register(input: RegisterInput): Promise<AuthResponse> {
  return callApi(api.register, {
    body: {
      username: input.username,
      email: input.email,
      password: input.password,
      firstName: input.firstName || undefined,
      lastName: input.lastName || undefined,
      role: "founder",
      ...(input.invitationToken ? { invitationToken: input.invitationToken } : {}),
    },
  });
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (response) => startSession(queryClient, response),
  });
}
