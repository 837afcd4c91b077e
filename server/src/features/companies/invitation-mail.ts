import { eq } from "drizzle-orm";
import type { AddMemberResult } from "../../../../shared/companies";
import { invitationLifetimeMs } from "../../../../shared/identity";
import { displayName } from "../../../../shared/people";
import type { CompanyRole } from "../../../../shared/roles";
import type { ServiceDeps } from "../../app-deps";
import { rateRule } from "../../limits";
import type { Clock } from "../../clock";
import type { Queryable } from "../../db/client";
import { companies, users } from "../../db/schema";
import { nameColumns } from "../../db/columns";
import { linkWithToken, newLinkToken } from "../../crypto/link-token";
import { countAgainstLimits } from "../../http/rate-limit";
import { defaultMailSettings } from "../../integrations/mailer";
import { enqueueMail, sealToken } from "../notifications/outbox.service";

// Sending an invitation: its two links, the e-mail with the one that proves the address, and the answer with the other.

export interface InvitationLinks {
  /** The mailed link: only the address's holder reads it, so following it proves the address. */
  mailed: { token: string; tokenHash: string };
  /** The link shown once to the inviter, to pass on: the inviter holds it too, so it joins but proves nothing. */
  shared: { token: string; tokenHash: string };
  expiresAt: Date;
}

/** Fresh links for an invitation (their digests for the row, their tokens for the mail and the answer), and 14 days. */
export function newInvitationLinks(clock: Clock): InvitationLinks {
  return { mailed: newLinkToken(), shared: newLinkToken(), expiresAt: new Date(clock.now().getTime() + invitationLifetimeMs) };
}

/**
 * The invitation e-mail with its link (the token sealed: the outbox never holds it readable), in the invitation's
 * transaction. It counts against the daily limits of invitations of the inviting company, of the inviter (across
 * all their companies) and of the company to the invited address (429 with Retry-After beyond any, and the invitation
 * is not made): the platform's own sender carries the company's free-text message, to any address.
 */
export async function queueInvitationMail(
  tx: Queryable,
  deps: ServiceDeps<"appSecret" | "clock" | "limits">,
  invitation: { companyId: number; email: string; role: CompanyRole; inviterId: number; expiresAt: Date },
  token: string,
): Promise<void> {
  const address = invitation.email.trim().toLowerCase();
  await countAgainstLimits(tx, deps.clock, [
    { rule: rateRule(deps, "invitationsPerCompany"), key: String(invitation.companyId) },
    { rule: rateRule(deps, "invitationsPerInviter"), key: String(invitation.inviterId) },
    { rule: rateRule(deps, "invitationsPerAddress"), key: `${invitation.companyId} ${address}` },
  ]);
  const [row] = await tx
    .select({
      companyName: companies.name,
      invitationMessage: companies.invitationMessage,
      ...nameColumns,
    })
    .from(companies)
    .innerJoin(users, eq(users.id, invitation.inviterId))
    .where(eq(companies.id, invitation.companyId));
  if (!row) throw new Error("the inviting company or user is missing");
  await enqueueMail(tx, [
    {
      userId: null,
      companyId: invitation.companyId,
      to: invitation.email,
      message: {
        type: "invitation",
        companyName: row.companyName,
        inviterName: displayName(row),
        role: invitation.role,
        email: invitation.email,
        invitationMessage: row.invitationMessage?.trim() || null,
        sealedToken: sealToken(token, deps.appSecret),
        expiresAt: invitation.expiresAt.toISOString(),
      },
    },
  ]);
}

/** The answer to "Add Member" and to a resend, with the link that joins but proves nothing: the same shape whoever holds the address. */
export function invitedAnswer(
  deps: ServiceDeps<"mail">,
  row: { id: number; email: string; role: CompanyRole; createdAt: Date; expiresAt: Date },
  sharedToken: string,
): AddMemberResult {
  return {
    status: "invited",
    invitation: {
      id: row.id,
      email: row.email,
      role: row.role,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
    },
    inviteUrl: linkWithToken((deps.mail ?? defaultMailSettings).appUrl, "/invite", sharedToken),
  };
}
