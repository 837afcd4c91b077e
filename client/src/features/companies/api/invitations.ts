import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AddMemberResult, PendingInvitation } from "@shared/companies";
import type { InvitationAccepted, InvitationPreview, MyInvitation } from "@shared/identity";
import * as companiesApi from "@shared/api/companies";
import * as api from "@shared/api/companies";
import { callApi } from "@/lib/api-client";
import { useFirstScreenDrawn } from "@/lib/first-screen";
import { companyKeys } from "@/features/companies/api/company-keys";
import { afterSwitch, switchCompany } from "@/features/companies/api/switch-company";

/** Invitations seen by the person invited: not company-scoped (they are not a member yet). */
export const invitationKeys = {
  preview: (token: string) => ["invitations", "preview", token] as const,
  mine: () => ["invitations", "mine"] as const,
};

/** POST /api/invitations/preview {token}: what a link offers, before anyone signs in. */
export function previewInvitation(token: string): Promise<InvitationPreview> {
  return callApi(api.previewInvitation, { body: { token } });
}

export function useInvitationPreview(token: string) {
  return useQuery({ queryKey: invitationKeys.preview(token), queryFn: () => previewInvitation(token), enabled: token !== "" });
}

/**
 * Accepts an invitation, then that company is the active one and what the user sees is read again: the switch's own
 * reads, their companies and the dashboard's invitations.
 */
function useJoin<Input>(userId: number, accept: (input: Input) => Promise<InvitationAccepted>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: Input) => {
      const accepted = await accept(input);
      await afterSwitch(queryClient, await switchCompany(userId, accepted.companyId));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: companyKeys.list(), exact: true }),
        queryClient.invalidateQueries({ queryKey: invitationKeys.mine(), exact: true }),
      ]);
      return accepted;
    },
  });
}

/** POST /api/invitations/accept {token}, signed in with the invited address. */
export function useAcceptInvitationByLink(userId: number) {
  return useJoin(userId, (token: string) => callApi(api.acceptInvitationByLink, { body: { token } }));
}

/** GET /api/invitations: pending invitations to the caller's verified address. */
export const myInvitationsQueryOptions = () =>
  queryOptions({ queryKey: invitationKeys.mine(), queryFn: (): Promise<MyInvitation[]> => callApi(api.listMyInvitations) });

/** Asked once the first screen is drawn: the dashboard's own panels come first. */
export function useMyInvitations() {
  return useQuery({ ...myInvitationsQueryOptions(), enabled: useFirstScreenDrawn() });
}

/** POST /api/invitations/:id/accept. */
export function useAcceptInvitation(userId: number) {
  return useJoin(userId, (id: number) => callApi(api.acceptInvitation, { params: { id } }));
}

/** POST /api/invitations/:id/decline. */
export function useDeclineInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callApi(api.declineInvitation, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationKeys.mine(), exact: true }),
  });
}

/** GET /api/companies/:companyId/invitations (founders and admins): every invitation of the company, newest first. */
export const companyInvitationsQueryOptions = (companyId: number) =>
  queryOptions({
    queryKey: companyKeys.invitations(companyId),
    queryFn: (): Promise<PendingInvitation[]> => callApi(companiesApi.listInvitations, { params: { companyId } }),
  });

export function useCompanyInvitations(companyId: number) {
  return useQuery(companyInvitationsQueryOptions(companyId));
}

/** After an invitation is made, resent or revoked: the company's list of invitations is read again (nobody joined). */
export function useRefreshInvitations(companyId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: companyKeys.invitations(companyId), exact: true });
}

/** POST /api/companies/:companyId/invitations/:id/resend → a new link (shown once); the old one stops working. */
export function useResendInvitation(companyId: number) {
  const refresh = useRefreshInvitations(companyId);
  return useMutation({
    mutationFn: (id: number): Promise<AddMemberResult> => callApi(companiesApi.resendInvitation, { params: { companyId, id } }),
    onSuccess: refresh,
  });
}

/** DELETE /api/companies/:companyId/invitations/:id: the link stops working. */
export function useRevokeInvitation(companyId: number) {
  const refresh = useRefreshInvitations(companyId);
  return useMutation({
    mutationFn: (id: number) => callApi(companiesApi.revokeInvitation, { params: { companyId, id } }),
    onSuccess: refresh,
  });
}
