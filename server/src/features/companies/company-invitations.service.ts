import { and, desc, eq, ne } from "drizzle-orm";
import type { AddMemberResult, PendingInvitation } from "../../../../shared/companies";
import { can, deniedMessage } from "../../../../shared/permissions";
import type { CompanyRole } from "../../../../shared/roles";
import type { ServiceDeps } from "../../app-deps";
import type { Clock } from "../../clock";
import { recordAudit } from "../../db/audit";
import { invitations } from "../../db/schema";
import { conflict, forbidden, notFound } from "../../http/errors";
import { assertFreshProof } from "../../http/fresh-proof";
import { invitedAnswer, newInvitationLinks, queueInvitationMail } from "./invitation-mail";
import { answerableColumns, isExpired } from "./invitations.service";

// A company's invitations as its members manage them: listed, resent and withdrawn. Answering one is invitations.service.ts.

/** GET /api/companies/:id/invitations and the settings: every invitation of the company, newest first. */
export async function listInvitations({ db, clock }: ServiceDeps<"db" | "clock">, companyId: number): Promise<PendingInvitation[]> {
  const rows = await db
    .select({ ...answerableColumns, createdAt: invitations.createdAt, tokenHash: invitations.tokenHash })
    .from(invitations)
    .where(eq(invitations.companyId, companyId))
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    status: isExpired(row, clock) ? "expired" : row.status,
    hasLink: row.tokenHash !== null,
  }));
}

export interface InvitingActor {
  userId: number;
  role: CompanyRole;
  /** When the actor's session last proved its holder afresh. */
  reauthAt: Date | null;
}

/**
 * An invitation that seats someone who may invite in turn (an admin or a founder) is a security change: its link
 * makes a lasting seat, so a session alone (perhaps a stolen one) may not send it without a fresh proof.
 */
export function assertMaySeat(clock: Clock, actor: InvitingActor, role: CompanyRole): void {
  if (can(role, "manageMembers")) assertFreshProof(clock, actor);
}

const answeredMessage = "This invitation was already answered or withdrawn";

/** POST /api/companies/:id/invitations/:invitationId/resend: new links (the old ones die), 14 more days, mailed again. */
export async function resendInvitation(
  deps: ServiceDeps<"db" | "clock" | "appSecret" | "mail" | "limits">,
  actor: InvitingActor,
  companyId: number,
  invitationId: number,
): Promise<AddMemberResult> {
  const { db, clock } = deps;
  const ofCompany = and(eq(invitations.id, invitationId), eq(invitations.companyId, companyId));
  return db.transaction(async (tx) => {
    const [current] = await tx.select({ role: invitations.role, status: invitations.status }).from(invitations).where(ofCompany);
    if (!current) throw notFound("Invitation not found");
    if (current.status !== "pending") throw conflict(answeredMessage);
    if (current.role === "founder" && !can(actor.role, "assignFounder")) throw forbidden("Only a founder can invite a founder");
    assertMaySeat(clock, actor, current.role);
    const links = newInvitationLinks(clock);
    const [row] = await tx
      .update(invitations)
      .set({
        tokenHash: links.mailed.tokenHash,
        sharedTokenHash: links.shared.tokenHash,
        expiresAt: links.expiresAt,
        invitedBy: actor.userId,
      })
      .where(and(ofCompany, eq(invitations.status, "pending")))
      .returning({ ...answerableColumns, createdAt: invitations.createdAt });
    if (!row) throw conflict(answeredMessage);
    await recordAudit(tx, clock, {
      actorId: actor.userId,
      companyId,
      action: "member.invite",
      targetType: "invitation",
      targetId: row.id,
      details: { role: row.role, resent: true },
    });
    await queueInvitationMail(tx, deps, { ...row, inviterId: actor.userId }, links.mailed.token);
    return invitedAnswer(deps, row, links.shared.token);
  });
}

/**
 * DELETE /api/companies/:id/invitations/:invitationId: the links stop working; the row stays, revoked. A founder's
 * invitation only by a founder (one conditional UPDATE, so the check and the write are one).
 */
export async function revokeInvitation(
  { db, clock }: ServiceDeps<"db" | "clock">,
  actor: InvitingActor,
  companyId: number,
  invitationId: number,
): Promise<void> {
  const ofCompany = and(eq(invitations.id, invitationId), eq(invitations.companyId, companyId));
  const mayRevoke = can(actor.role, "assignFounder") ? undefined : ne(invitations.role, "founder");
  await db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(invitations)
      .set({ status: "revoked", respondedAt: clock.now() })
      .where(and(ofCompany, eq(invitations.status, "pending"), mayRevoke))
      .returning({ id: invitations.id, role: invitations.role });
    if (!revoked) {
      const [current] = await tx.select({ role: invitations.role, status: invitations.status }).from(invitations).where(ofCompany);
      if (!current) throw notFound("Invitation not found");
      throw current.status === "pending" ? forbidden(deniedMessage("assignFounder")) : conflict(answeredMessage);
    }
    await recordAudit(tx, clock, {
      actorId: actor.userId,
      companyId,
      action: "member.invite_revoked",
      targetType: "invitation",
      targetId: revoked.id,
      details: { role: revoked.role },
    });
  });
}
