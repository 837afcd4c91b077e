// Who may join a board: proved addresses, invitations answered by their holder, password resets and the fresh
// proof a security change needs. zod/mini: the pages a link from an e-mail opens load these before anything else.
import { z } from "zod/mini";
import { email, password, text, token } from "./input";
import type { CompanyRole } from "./roles";

/** How long a fresh proof lasts, and how long each link lives. */
export const reauthLifetimeMs = 10 * 60_000;
export const invitationLifetimeMs = 14 * 24 * 60 * 60_000;
export const verificationLifetimeMs = 24 * 60 * 60_000;
export const passwordResetLifetimeMs = 30 * 60_000;

/** A token from a link in an e-mail (base64url of 32 bytes). */
export const linkTokenMessage = "This link is not valid. Ask for a new one.";
const linkToken = token(linkTokenMessage, 100);

/** `POST /api/auth/verify-email`, `POST /api/invitations/preview` and `…/accept`: the token of the link followed. */
export const linkTokenSchema = z.object({ token: linkToken });
export type LinkTokenInput = z.infer<typeof linkTokenSchema>;

/** `POST /api/auth/password-reset`. */
export const passwordResetRequestSchema = z.object({ email: email("Please enter a valid email address") });
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/** `POST /api/auth/password-reset/confirm`. */
export const passwordResetConfirmSchema = z.object({
  token: linkToken,
  newPassword: password("Password must be at least 6 characters"),
});
export type PasswordResetConfirm = z.infer<typeof passwordResetConfirmSchema>;

/** `POST /api/auth/reauth`: the password, and a code from the app where the account has one. */
export const reauthSchema = z.object({
  password: password("Password is required", 1),
  code: z.optional(text({ max: 32 })),
});
export type ReauthInput = z.infer<typeof reauthSchema>;

/** The answers' shapes (their schemas are in identity-schemas.ts, out of the link pages' first load). */
export interface ReauthAnswer {
  /** Until when this session may make security changes (ISO). */
  until: string;
}

export const invitationStatuses = ["pending", "accepted", "declined", "revoked", "expired"] as const;
export type InvitationStatus = (typeof invitationStatuses)[number];

/** What an invitation's link shows before anyone signs in. */
export interface InvitationPreview {
  companyName: string;
  role: CompanyRole;
  inviterName: string;
  /** Partly masked: "c••@example.com". */
  email: string;
  expiresAt: string;
  status: InvitationStatus;
}

/** `POST /api/invitations/accept` and `…/:id/accept`: the company joined. */
export interface InvitationAccepted {
  companyId: number;
  role: CompanyRole;
}

/** An invitation to the caller's verified address, on their dashboard. */
export interface MyInvitation {
  id: number;
  companyName: string;
  role: CompanyRole;
  inviterName: string;
  expiresAt: string;
}

/** An address with its local part masked past its first character: "c••@example.com". */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf("@");
  if (at <= 0) return "••";
  return `${address[0]}••${address.slice(at)}`;
}
