import { z } from "zod";
import { answer } from "./answer";
import { id, isoTimestamp, queryInteger, token } from "./input";

// The audit trail as a board reads it: every change of its record, newest first, filterable, and the chain's head.

/** Every action the trail records; a filter naming another is refused. */
export const auditActions = [
  "account.email_change_requested",
  "account.email_verified",
  "account.password_changed",
  "account.password_reset",
  "account.sessions_revoked",
  "action_item.created",
  "action_item.updated",
  "company.archive_exported",
  "company.create",
  "company.quorum_changed",
  "company.update",
  "document.deleted",
  "document.replaced",
  "document.uploaded",
  "meeting.attendance_recorded",
  "meeting.scheduled",
  "meeting.updated",
  "meeting.agenda_updated",
  "member.add",
  "member.create",
  "member.invite",
  "member.invite_declined",
  "member.invite_revoked",
  "member.join",
  "member.leave",
  "member.role",
  "minutes.approved",
  "platform_service.created",
  "platform_service.deleted",
  "platform_service.updated",
  "resolution.conflict_declared",
  "resolution.conflict_withdrawn",
  "resolution.created",
  "resolution.decided",
  "resolution.meeting_vote",
  "resolution.signature_withdrawn",
  "resolution.signed",
  "resolution.signer_nudged",
  "resolution.vote_changed",
  "resolution.voted",
  "second_factor.totp_enabled",
  "second_factor.totp_disabled",
  "second_factor.recovery_code_used",
  "second_factor.passkey_added",
  "second_factor.passkey_removed",
  "second_factor.locked",
] as const;
export type AuditAction = (typeof auditActions)[number];

export const auditPageLimit = { default: 50, max: 200 } as const;

export const auditQuerySchema = z.object({
  action: z.optional(z.enum(auditActions, { message: "Unknown action" })),
  actorId: z.optional(id("Actor must be a user's id")),
  from: z.optional(isoTimestamp("From must be a date and time")),
  to: z.optional(isoTimestamp("To must be a date and time")),
  cursor: z.optional(token("The cursor is not one this list gave")),
  limit: z.optional(queryInteger({ min: 1, max: auditPageLimit.max, message: `Limit must be from 1 to ${auditPageLimit.max}` })),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditEventSchema = answer.object({
  seq: answer.number().int(),
  at: answer.string(),
  actorId: answer.number().int().nullable(),
  /** The actor's display name, for reading; not part of the hashed event. */
  actorName: answer.string().nullable(),
  companyId: answer.number().int().nullable(),
  action: answer.string(),
  targetType: answer.string(),
  targetId: answer.string().nullable(),
  details: answer.unknown(),
  prevHash: answer.string(),
  hash: answer.string(),
});
export type AuditEventView = z.infer<typeof auditEventSchema>;

export const auditPageSchema = answer.object({
  events: answer.array(auditEventSchema),
  nextCursor: answer.string().nullable(),
  headHash: answer.string(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

export const auditVerdictSchema = answer.union([
  answer.object({ ok: answer.literal(true), count: answer.number().int(), headHash: answer.string() }),
  answer.object({ ok: answer.literal(false), count: answer.number().int(), brokenAt: answer.object({ seq: answer.number().int() }) }),
]);
