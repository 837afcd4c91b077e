import type { AuditAction } from "@shared/audit";

/** Each recorded action as the log names it. */
export const auditActionLabels: Record<AuditAction, string> = {
  "account.email_change_requested": "E-mail change asked for",
  "account.email_verified": "E-mail address confirmed",
  "account.password_changed": "Password changed",
  "account.password_reset": "Password reset by e-mail",
  "account.sessions_revoked": "Sessions signed out",
  "action_item.created": "Action item created",
  "action_item.updated": "Action item updated",
  "company.archive_exported": "Archive downloaded",
  "company.create": "Company created",
  "company.quorum_changed": "Quorum changed",
  "company.update": "Company settings changed",
  "document.deleted": "Document deleted",
  "document.replaced": "New version of a paper",
  "document.uploaded": "Document uploaded",
  "meeting.attendance_recorded": "Attendance recorded",
  "meeting.scheduled": "Meeting scheduled",
  "meeting.updated": "Meeting changed",
  "meeting.agenda_updated": "Agenda changed",
  "member.add": "Member added",
  "member.create": "Member account created",
  "member.invite": "Member invited",
  "member.invite_declined": "Invitation declined",
  "member.invite_revoked": "Invitation withdrawn",
  "member.join": "Member joined",
  "member.leave": "Member left",
  "member.role": "Role changed",
  "minutes.approved": "Minutes approved",
  "platform_service.created": "Service key added",
  "platform_service.deleted": "Service key removed",
  "platform_service.updated": "Service key changed",
  "resolution.conflict_declared": "Conflict of interest declared",
  "resolution.conflict_withdrawn": "Conflict of interest withdrawn",
  "resolution.created": "Resolution proposed",
  "resolution.decided": "Resolution decided",
  "resolution.meeting_vote": "Show of hands recorded",
  "resolution.signer_nudged": "Director reminded to sign",
  "resolution.vote_changed": "Vote changed",
  "resolution.voted": "Vote cast",
  "resolution.signed": "Written resolution signed",
  "resolution.signature_withdrawn": "Signature withdrawn",
  "second_factor.totp_enabled": "Authenticator app turned on",
  "second_factor.totp_disabled": "Authenticator app turned off",
  "second_factor.recovery_code_used": "Recovery code used",
  "second_factor.passkey_added": "Passkey added",
  "second_factor.passkey_removed": "Passkey removed",
  "second_factor.locked": "Second step of signing in locked after wrong codes",
};

/** The label of an action; one this screen does not know (a newer server) is shown as recorded. */
export function auditActionLabel(action: string): string {
  return (auditActionLabels as Record<string, string>)[action] ?? action;
}

/**
 * A person's own account (passwords, sessions, second factors) and the platform's service keys belong to no
 * company: the server records them in the platform's chain, never in a company's trail.
 */
const isPlatformAction = (action: AuditAction) => /^(account|platform_service|second_factor)\./.test(action);

/** The actions a company's filter offers, by label. */
export const auditActionOptions = (Object.entries(auditActionLabels) as [AuditAction, string][])
  .filter(([value]) => !isPlatformAction(value))
  .map(([value, label]) => ({ value, label }))
  .sort((a, b) => a.label.localeCompare(b.label));

const summaryLength = 160;

/** A change recorded as {from, to}. */
function isChange(value: unknown): value is { from: unknown; to: unknown } {
  return typeof value === "object" && value !== null && "from" in value && "to" in value && Object.keys(value).length === 2;
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.map(valueText).join(", ");
  if (isChange(value)) return `${valueText(value.from)} → ${valueText(value.to)}`;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** An event's details in one line ("title: Budget review · status: pending → confirmed"), cut at 160 characters. */
export function summariseDetails(details: unknown): string {
  if (details === null || details === undefined) return "";
  const text =
    typeof details === "object" && !Array.isArray(details) && !isChange(details)
      ? Object.entries(details as Record<string, unknown>)
          .map(([key, value]) => `${key}: ${valueText(value)}`)
          .join(" · ")
      : valueText(details);
  return text.length > summaryLength ? `${text.slice(0, summaryLength - 1)}…` : text;
}
