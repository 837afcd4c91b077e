import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AccountSession } from "@shared/account";
import * as api from "@shared/api/account";
import { callApi } from "@/lib/api-client";
import { accountKeys } from "@/features/account/api/account-keys";

/** GET /api/users/:id/sessions: the user's signed-in sessions, this one first. */
export function getSessions(userId: number): Promise<AccountSession[]> {
  return callApi(api.listSessions, { params: { id: userId } });
}

export const sessionsQueryOptions = (userId: number) =>
  queryOptions({ queryKey: accountKeys.sessions(userId), queryFn: () => getSessions(userId) });

export function useSessions(userId: number) {
  return useQuery(sessionsQueryOptions(userId));
}
