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
  roleChangeResultSchema,
  roleChangeSchema,
  switchCompanySchema,
} from "../companies";
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
  summary: "A company's members, with the other boards each sits on",
  tag,
  access: byCompany,
  responses: { 200: z.array(companyMemberSchema) },
});

export const addMember = endpoint({
  method: "POST",
  path: "/api/companies/:companyId/members",
  summary:
    "Add a member: with a password, the account is created unless the e-mail has one; without, an existing account is added or an invitation left",
  tag,
  access: { ...byCompany, permission: "manageMembers" },
  body: memberRequestSchema,
  responses: { 201: addMemberResultSchema },
  errors: { 409: "The person is already a member, or an account already uses the e-mail address as its username" },
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
