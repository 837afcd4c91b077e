import { auditPageSchema, auditQuerySchema, auditVerdictSchema } from "../audit";
import { endpoint } from "./endpoint";

// A company's audit trail: a hash chain of every change of its record, readable by its founders and admins.

const tag = "Audit trail";
const companyAdmins = { class: "company", by: "param", param: "companyId", permission: "viewAudit" } as const;

export const listAuditEvents = endpoint({
  method: "GET",
  path: "/api/companies/:companyId/audit",
  summary: "The company's audit events, newest first, filtered by action, actor and time, a page at a time; with the chain's head hash",
  tag,
  access: companyAdmins,
  query: auditQuerySchema,
  responses: { 200: auditPageSchema },
  errors: { 400: "A filter that is not a date, an action the trail does not record, or a cursor this list did not give" },
});

export const exportAuditEvents = endpoint({
  method: "GET",
  path: "/api/companies/:companyId/audit/export",
  summary: "The whole chain as JSON Lines in order, then a trailer line with its head hash and count; verify it offline with npm run audit",
  tag,
  access: companyAdmins,
  responses: { 200: { contentType: "application/x-ndjson", description: "One event a line in seq order, then {headHash, count}" } },
});

export const verifyAuditChain = endpoint({
  method: "GET",
  path: "/api/companies/:companyId/audit/verify",
  summary:
    "Recomputes the company's chain: ok with its count and head, or the first event whose hash or link does not hold. One computation per company at a time (a call meanwhile waits for it), and its verdict is answered again until the chain's head moves",
  tag,
  access: companyAdmins,
  responses: { 200: auditVerdictSchema },
});
