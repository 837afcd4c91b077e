import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { User } from "@shared/auth";
import * as api from "@shared/api/companies";
import { callApi } from "@/lib/api-client";
import { companyScope } from "@/lib/auth/active-company";
import { authKeys } from "@/lib/auth/auth-keys";

/** PATCH /api/users/:id/active-company {companyId} → the user, now acting in that company. */
export function switchCompany(userId: number, companyId: number): Promise<User> {
  return callApi(api.switchActiveCompany, { params: { id: userId }, body: { companyId } });
}

/**
 * Switches the active company. On success the answered user is cached at once, then the current user
 * (the server's word on it is fetched again after a switch) and every company-scoped query (keys under
 * `companyScope.all()`) are marked stale; those on screen refetch. Queries that do not depend on the company (the user's
 * companies, notifications, platform data) are left alone.
 */
export function useSwitchCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, companyId }: { userId: number; companyId: number }) => switchCompany(userId, companyId),
    onSuccess: (user) => afterSwitch(queryClient, user),
  });
}

/** What follows any switch of the active company: the answered user cached, then it and every company-scoped read stale. */
export async function afterSwitch(queryClient: QueryClient, user: User): Promise<void> {
  queryClient.setQueryData(authKeys.user(), user);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: authKeys.user(), exact: true }),
    queryClient.invalidateQueries({ queryKey: companyScope.all() }),
  ]);
}
