import { z } from "zod";
import { userSchema } from "../auth-schemas";
import {
  addMemberResultSchema,
  companyMemberSchema,
  companyProfileSchema,
  companySchema,
  companySettingsSchema,
  companySummarySchema,
  memberRequestSchema,
  pendingInvitationSchema,
  roleChangeResultSchema,
  roleChangeSchema,
  switchCompanySchema,
} from "../companies";
import { linkTokenSchema } from "../identity";
import { invitationAcceptedSchema, invitationPreviewSchema, myInvitationSchema } from "../identity-schemas";
import { endpoint } from "./endpoint";

const tag = "Companies";
const signedIn = { class: "own-user", by: "session" } as const;
const byCompany = { class: "company", by: "param", param: "companyId" } as const;
const ownAccount = { class: "own-user", by: "param", param: "id" } as const;
const notAMember = "The caller is not a member of the company named in the body";

export const createCompany = endpoint({
  method: "POST",
  path: "/api/companies",
  summary: "Create a company with the caller as its founder (the active company is not changed)",
  tag,
  access: signedIn,
  body: companyProfileSchema,
  responses: { 201: companySchema },
});

export const listCompanies = endpoint({
  method: "GET",
  path: "/api/companies",
  summary: "The caller's companies with their role in each, by name",
  tag,
  access: signedIn,
  responses: { 200: z.array(companySummarySchema) },
});

export const getCompanySettings = endpoint({
  method: "GET",
  path: "/api/companies/:companyId/settings",
  summary: "A company's profile and members; its pending invitations too for founders and admins",
  tag,
  access: byCompany,
  responses: { 200: companySettingsSchema },
});

export const updateCompany = endpoint({
  method: "PUT",
  path: "/api/companies/:companyId",
  summary: "Change a company's profile (founders and admins)",
  tag,
  access: { ...byCompany, permission: "editCompany" },
  body: companyProfileSchema,
  responses: { 200: companySchema },
});

// Switching the active company: PATCH is the switcher's call, PUT {companyId} the onboarding wizard's.
export const switchActiveCompany = endpoint({
  method: "PATCH",
  path: "/api/users/:id/active-company",
  summary: "Make one of the caller's companies their active one; answers the user, now acting in it",
  tag,
  access: ownAccount,
  body: switchCompanySchema,
  responses: { 200: userSchema },
  errors: { 403: notAMember },
});

export const linkUserToCompany = endpoint({
  method: "PUT",
  path: "/api/users/:id",
  summary: "Make one of the caller's companies their active one (the onboarding wizard's call); answers the user",
  tag,
  access: ownAccount,
  body: switchCompanySchema,
  responses: { 200: userSchema },
  errors: { 403: notAMember },
});

export const listMembers = endpoint({
  method: "GET",
  path: "/api/companies/:companyId/members",
  summary: "A company's members, with those of the other boards each sits on that the caller sits on too",
  tag,
  access: byCompany,
  responses: { 200: z.array(companyMemberSchema) },
});

export const addMember = endpoint({
  method: "POST",
  path: "/api/companies/:companyId/members",
  summary:
    "Invite someone by e-mail address: nobody joins until the address's holder accepts by the link (e-mailed when a mail service is configured, and answered here once). With a password and an address no account holds, an account is made that cannot sign in until its holder sets a password of their own by the link. The answer is the same whether or not an account holds the address",
  tag,
  access: { ...byCompany, permission: "manageMembers" },
  body: memberRequestSchema,
  responses: { 202: addMemberResultSchema },
  errors: {
    403: "A founder invitation (a new one, or a pending one the address already has) by an actor who is not a founder",
    409: "The address's verified holder is already a member",
    429: "The company's, or the address's, invitations for the day are used up (with Retry-After); nothing is made or sent",
  },
});

export const listInvitations = endpoint({
  method: "GET",
  path: "/api/companies/:companyId/invitations",
  summary: "The company's invitations, newest first: pending, accepted, declined, revoked or expired (founders and admins)",
  tag,
  access: { ...byCompany, permission: "manageMembers" },
  responses: { 200: z.array(pendingInvitationSchema) },
});

export const resendInvitation = endpoint({
  method: "POST",
  path: "/api/companies/:companyId/invitations/:id/resend",
  summary: "A new link for a pending or expired invitation (the old one stops working), e-mailed again; 14 more days",
  tag,
  access: { ...byCompany, permission: "manageMembers" },
  responses: { 200: addMemberResultSchema },
  errors: {
    403: "A founder invitation, resent by an actor who is not a founder",
    404: "No invitation of the company has this id",
    409: "The invitation was accepted, declined or revoked",
    429: "The company's, or the address's, invitations for the day are used up (with Retry-After); nothing is made or sent",
  },
});

export const revokeInvitation = endpoint({
  method: "DELETE",
  path: "/api/companies/:companyId/invitations/:id",
  summary: "Revoke a pending invitation: its link stops working",
  tag,
  access: { ...byCompany, permission: "manageMembers" },
  responses: { 204: null },
  errors: {
    403: "A founder invitation, revoked by an actor who is not a founder",
    404: "No invitation of the company has this id",
    409: "The invitation was already answered or revoked",
  },
});

export const leaveCompany = endpoint({
  method: "DELETE",
  path: "/api/companies/:companyId/members/me",
  summary: "Leave a company: the caller's membership ends (an audit event); the last founder cannot leave",
  tag,
  access: byCompany,
  responses: { 204: null },
  errors: { 409: "The caller is the company's last founder" },
});

export const changeRole = endpoint({
  method: "PATCH",
  path: "/api/users/:userId/role",
  summary: "Change a member's role in the company the body names (else the caller's active company)",
  tag,
  // A company the caller is not a member of is not revealed (404).
  access: { class: "thing", thing: "company", from: "body", permission: "changeRole" },
  body: roleChangeSchema,
  responses: { 200: roleChangeResultSchema },
  errors: { 409: "The change would leave the company without a founder" },
});

// Invitations answered by their holder: a membership is made only by its member's own act. Tokens from links travel
// in bodies, never in a path, which the request log records.
const invitationsTag = "Invitations";
const badLink = "The link's token is malformed or names nothing";

export const previewInvitation = endpoint({
  method: "POST",
  path: "/api/invitations/preview",
  summary:
    "What an invitation's link (the mailed one or the inviter's) offers, before anyone signs in: the company, the role, who invited, the address (masked) and its state",
  tag: invitationsTag,
  access: { class: "public" },
  body: linkTokenSchema,
  responses: { 200: invitationPreviewSchema },
  errors: { 404: badLink },
});

export const acceptInvitationByLink = endpoint({
  method: "POST",
  path: "/api/invitations/accept",
  summary:
    "Accept an invitation by a link's token, signed in with the invited address: joins the company; the mailed link also proves the address for the account, the link shown to the inviter does not",
  tag: invitationsTag,
  access: signedIn,
  body: linkTokenSchema,
  responses: { 200: invitationAcceptedSchema },
  errors: {
    403: "The invitation was sent to another address (named, partly masked)",
    404: badLink,
    409: "The invitation was already accepted, the caller is already a member, or another account proved the address first",
    410: "The invitation expired, was declined or revoked",
  },
});

export const listMyInvitations = endpoint({
  method: "GET",
  path: "/api/invitations",
  summary: "Pending invitations to the caller's verified address",
  tag: invitationsTag,
  access: signedIn,
  responses: { 200: z.array(myInvitationSchema) },
});

export const acceptInvitation = endpoint({
  method: "POST",
  path: "/api/invitations/:id/accept",
  summary: "Accept a pending invitation to the caller's verified address: joins the company",
  tag: invitationsTag,
  access: { class: "own-user", by: "owner", thing: "invitation" },
  responses: { 200: invitationAcceptedSchema },
  errors: {
    404: "No pending invitation to the caller's verified address has this id",
    409: "Already accepted, already a member, or another account proved the address first",
  },
});

export const declineInvitation = endpoint({
  method: "POST",
  path: "/api/invitations/:id/decline",
  summary: "Decline a pending invitation to the caller's verified address",
  tag: invitationsTag,
  access: { class: "own-user", by: "owner", thing: "invitation" },
  responses: { 204: null },
  errors: { 404: "No pending invitation to the caller's verified address has this id" },
});
