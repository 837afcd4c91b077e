import { useMutation } from "@tanstack/react-query";
import type { AddMemberInput, AddMemberResult, InviteInput } from "@shared/companies";
import * as api from "@shared/api/companies";
import { callApi } from "@/lib/api-client";
import { useRefreshInvitations } from "@/features/companies/api/invitations";

/**
 * POST /api/companies/:companyId/members → 202 `{status: "invited", invitation, inviteUrl}`, whether or not an account
 * holds the address: nobody joins until the address's holder accepts by the link. With a password (the Add Member
 * dialog) and an address no account holds, the account made for it waits for its holder to set a password of their own.
 */
export function addMember(companyId: number, input: AddMemberInput | InviteInput): Promise<AddMemberResult> {
  return callApi(api.addMember, { params: { companyId }, body: { ...input, companyId } });
}

export function useAddMember(companyId: number) {
  return useMutation({
    mutationFn: (input: AddMemberInput | InviteInput) => addMember(companyId, input),
    onSuccess: useRefreshInvitations(companyId),
  });
}
