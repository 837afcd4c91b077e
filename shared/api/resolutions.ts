import { z } from "zod";
import {
  castVoteSchema,
  conflictSchema,
  createResolutionSchema,
  pendingResolutionSummarySchema,
  quorumSettingSchema,
  quorumSettingsSchema,
  resolutionDetailsSchema,
  resolutionSchema,
  voteCountsSchema,
} from "../resolutions";
import {
  nudgeSignerSchema,
  signOptionsAnswerSchema,
  signOptionsSchema,
  signResolutionSchema,
  writtenCertificateSchema,
} from "../written-resolutions";
import { endpoint } from "./endpoint";

const tag = "Resolutions";
const byCompany = { class: "company", by: "param", param: "companyId" } as const;
const resolutionById = { class: "thing", thing: "resolution", param: "id" } as const;
/** A vote and a conflict check the caller's membership and role in the service, under the resolution's row lock. */
const resolutionInService = { class: "thing", thing: "resolution", param: "id", by: "service" } as const;

export const createResolution = endpoint({
  method: "POST",
  path: "/api/resolutions",
  summary: "Create a resolution in the caller's active company (always pending), decided by an online vote or in writing",
  tag,
  access: { class: "company", by: "active", permission: "createResolution" },
  body: createResolutionSchema,
  responses: { 201: resolutionSchema },
});

export const listResolutions = endpoint({
  method: "GET",
  path: "/api/companies/:companyId/resolutions",
  summary: "A company's resolutions, newest first, with their vote counts",
  tag,
  access: byCompany,
  responses: { 200: z.array(resolutionSchema) },
});

export const pendingResolutions = endpoint({
  method: "GET",
  path: "/api/companies/:companyId/resolutions/pending",
  summary: "A company's resolutions still open for votes",
  tag,
  access: byCompany,
  responses: { 200: z.array(pendingResolutionSummarySchema) },
});

export const getResolution = endpoint({
  method: "GET",
  path: "/api/resolutions/:id",
  summary: "One resolution with its documents, voters, recusals and, once decided, its certificate",
  tag,
  access: resolutionById,
  responses: { 200: resolutionDetailsSchema },
});

export const getVoteCounts = endpoint({
  method: "GET",
  path: "/api/resolutions/:id/votes",
  summary: "A resolution's vote counts and the caller's own vote (polled while it is shown)",
  tag,
  access: resolutionById,
  responses: { 200: voteCountsSchema },
});

export const castVote = endpoint({
  method: "POST",
  path: "/api/resolutions/:id/vote",
  summary: "Cast or change the caller's vote; answers the counts after it",
  tag,
  access: resolutionInService,
  body: castVoteSchema,
  responses: { 200: voteCountsSchema },
  errors: { 409: "The resolution is decided, its deadline has passed, or it is a written resolution" },
});

export const declareConflict = endpoint({
  method: "POST",
  path: "/api/resolutions/:id/conflict",
  summary: "Declare a conflict of interest: the caller is recused from the vote",
  tag,
  access: resolutionInService,
  body: conflictSchema,
  responses: { 204: null },
  errors: { 409: "The resolution is decided, or its deadline has passed" },
});

export const withdrawConflict = endpoint({
  method: "DELETE",
  path: "/api/resolutions/:id/conflict",
  summary: "Withdraw the caller's declared conflict of interest",
  tag,
  access: resolutionInService,
  responses: { 204: null },
  errors: { 409: "The resolution is decided, or its deadline has passed" },
});

export const getQuorum = endpoint({
  method: "GET",
  path: "/api/companies/:companyId/quorum",
  summary: "The company's quorum setting for resolutions",
  tag,
  access: byCompany,
  responses: { 200: quorumSettingSchema },
});

export const updateQuorum = endpoint({
  method: "PUT",
  path: "/api/companies/:companyId/quorum",
  summary: "Change the company's quorum (null: more than half of the eligible voters)",
  tag,
  access: { ...byCompany, permission: "editCompany" },
  body: quorumSettingsSchema,
  responses: { 200: quorumSettingSchema },
});

// --- Written resolutions ---

export const signOptions = endpoint({
  method: "POST",
  path: "/api/resolutions/:id/sign-options",
  summary: "The statement an eligible director signs for a decision on a written resolution, and the passkey request over it",
  tag,
  access: resolutionInService,
  body: signOptionsSchema,
  responses: { 200: signOptionsAnswerSchema },
  errors: { 409: "Not a pending written resolution, already signed, or a decision the rule does not offer" },
});

export const signResolution = endpoint({
  method: "POST",
  path: "/api/resolutions/:id/signatures",
  summary: "Sign a written resolution: a passkey assertion over the issued statement, or the password (and code) again",
  tag,
  access: resolutionInService,
  body: signResolutionSchema,
  responses: { 200: resolutionDetailsSchema },
  errors: { 409: "Not a pending written resolution, already signed, or not eligible" },
});

export const withdrawSignature = endpoint({
  method: "DELETE",
  path: "/api/resolutions/:id/signatures/mine",
  summary: "Withdraw the caller's signature while the rule allows and the resolution has not taken effect",
  tag,
  access: resolutionInService,
  responses: { 200: resolutionDetailsSchema },
  errors: { 409: "The rule forbids withdrawal, or the resolution is decided" },
});

export const nudgeSigner = endpoint({
  method: "POST",
  path: "/api/resolutions/:id/nudge",
  summary: "Remind a director who has not signed a written resolution (the proposer, founders and admins; once a day each)",
  tag,
  access: resolutionInService,
  body: nudgeSignerSchema,
  responses: { 204: null },
  errors: { 409: "Already signed, not eligible, or nudged in the last day" },
});

export const writtenCertificate = endpoint({
  method: "GET",
  path: "/api/resolutions/:id/certificate.json",
  summary: "A decided written resolution's machine-readable certificate, checkable offline",
  tag,
  access: resolutionById,
  responses: { 200: writtenCertificateSchema },
});
