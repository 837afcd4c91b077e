import type { Request } from "express";
import * as companiesApi from "../../../../shared/api/companies";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { authOf } from "../../http/guards";
import { idParam } from "../../http/validate";
import { listInvitations, resendInvitation, revokeInvitation } from "./company-invitations.service";
import {
  acceptInvitation,
  acceptInvitationByLink,
  declineInvitation,
  invitationNotFoundMessage,
  invitationOwnerOf,
  listMyInvitations,
  previewInvitation,
} from "./invitations.service";

/** Invitations: answered by their addresses' holders (/api/invitations/…), kept by founders and admins (/api/companies/:companyId/invitations/…). */
export function invitationsRoutes(deps: RouterDeps): BoundRoute[] {
  const ownInvitation = {
    ownerOf: (req: Request) => invitationOwnerOf(deps, authOf(req).user.id, idParam(req.params.id)),
    notFoundMessage: invitationNotFoundMessage,
  };
  return [
    route(companiesApi.previewInvitation, ({ body }) => previewInvitation(deps, body.token)),
    route(companiesApi.acceptInvitationByLink, ({ auth, body }) => acceptInvitationByLink(deps, auth.user, body.token)),
    route(companiesApi.listMyInvitations, ({ auth }) => listMyInvitations(deps, auth.user)),
    route(companiesApi.acceptInvitation, ({ auth, params }) => acceptInvitation(deps, auth.user.id, params.id), ownInvitation),
    route(companiesApi.declineInvitation, ({ auth, params }) => declineInvitation(deps, auth.user.id, params.id), ownInvitation),
    route(companiesApi.listInvitations, ({ tenant }) => listInvitations(deps, tenant.company.id)),
    route(companiesApi.resendInvitation, ({ auth, tenant, params }) =>
      resendInvitation(deps, { userId: auth.user.id, role: tenant.role, reauthAt: auth.reauthAt }, tenant.company.id, params.id),
    ),
    route(companiesApi.revokeInvitation, ({ auth, tenant, params }) =>
      revokeInvitation(deps, { userId: auth.user.id, role: tenant.role, reauthAt: auth.reauthAt }, tenant.company.id, params.id),
    ),
  ];
}
