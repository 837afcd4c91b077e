import { skipToken, useQuery, type QueryClient } from "@tanstack/react-query";
import type { User } from "@shared/auth";
import type { ApiErrorCode } from "@shared/api-error";
import { ApiError } from "@/lib/api-client";
import { authKeys } from "@/lib/auth/auth-keys";

// A company may require its members to have a second factor: until they set one up, its routes answer 403 with
// the code `second_factor_required`. Any request that meets that refusal marks the active company in the query
// cache; the signed-in frame then shows the set-up screen in place of the page.

// The code is written out: a value imported from the error body's module would bring the validation library
// into the first load, which this module is part of.
const secondFactorRequiredCode: ApiErrorCode = "second_factor_required";

const requiredKey = () => ["auth", "second-factor-required"] as const;

/** Whether an error is the refusal of a user who has no second factor and needs one first. */
export function isSecondFactorRequired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && error.code === secondFactorRequiredCode;
}

/**
 * Marks the active company as waiting for the user's second factor, if `error` says so. A user who has one
 * already (a session that must pass it again) is not asked to set one up.
 */
export function noteSecondFactorRequired(queryClient: QueryClient, error: unknown): void {
  if (!isSecondFactorRequired(error)) return;
  const user = queryClient.getQueryData<User | null>(authKeys.user());
  if (!user || user.secondFactor || user.companyId == null) return;
  if (queryClient.getQueryData(requiredKey()) !== user.companyId) queryClient.setQueryData(requiredKey(), user.companyId);
}

/** The set-up is done: the mark goes, and every query is asked again so the page shows its data. */
export async function clearSecondFactorRequired(queryClient: QueryClient): Promise<void> {
  if (queryClient.getQueryData(requiredKey()) == null) return;
  queryClient.setQueryData(requiredKey(), null);
  await queryClient.invalidateQueries();
}

/** Whether the active company waits for the signed-in user to set up a second factor. */
export function useSecondFactorRequired(companyId: number | null): boolean {
  // Never fetched: only noteSecondFactorRequired and clearSecondFactorRequired write it.
  const { data } = useQuery<number | null>({ queryKey: requiredKey(), queryFn: skipToken, staleTime: Infinity, gcTime: Infinity });
  return companyId != null && data === companyId;
}
