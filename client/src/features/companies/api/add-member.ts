import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AddMemberInput, AddMemberResult, InviteInput } from "@shared/companies";
import * as api from "@shared/api/companies";
import { callApi } from "@/lib/api-client";
import { companyKeys } from "@/features/companies/api/company-keys";

/**
 * POST /api/companies/:companyId/members. With a password (Add Member dialog) it creates the account
 * or adds an existing one; without (invite form) it adds an existing account or leaves an invitation.
 */
export function addMember(companyId: number, input: AddMemberInput | InviteInput): Promise<AddMemberResult> {
  return callApi(api.addMember, { params: { companyId }, body: { ...input, companyId } });
}

export function useAddMember(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddMemberInput | InviteInput) => addMember(companyId, input),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: companyKeys.members(companyId), exact: true }),
        queryClient.invalidateQueries({ queryKey: companyKeys.settings(companyId), exact: true }),
      ]),
  });
}
