import { and, desc, eq, gt, ne, or, sql, type SQL } from "drizzle-orm";
import { maskEmail, type InvitationAccepted, type InvitationPreview, type MyInvitation } from "../../../../shared/identity";
import { displayName } from "../../../../shared/people";
import type { CompanyRole } from "../../../../shared/roles";
import type { ServiceDeps } from "../../app-deps";
import type { Clock } from "../../clock";
import { recordAudit } from "../../db/audit";
import { equalsIgnoringCase } from "../../db/case-insensitive";
import type { Database, Queryable } from "../../db/client";
import { companies, invitations, memberships, users, type InvitationStatus } from "../../db/schema";
import { nameColumns } from "../../db/columns";
import { HttpError, conflict, forbidden, isUniqueViolation, notFound } from "../../http/errors";
import { linkTokenDigest } from "../../crypto/link-token";
import { addressProvedByAnotherMessage, proveAddress, releaseWaitingAccounts, waitingAccountsFor } from "../identity/addresses.service";
import type { UserRow } from "../../http/request-context";

// Answering an invitation: what its link offers, joining by it (signed in, or registering), and the invitations
// waiting for the caller's address. A company's side of them is company-invitations.service.ts.

export const alreadyMemberMessage = "This person is already a member of the company";
const badLinkMessage = "This invitation link is not valid. Ask for a new one.";
export const invitationNotFoundMessage = "No pending invitation to your verified address has this id";

/** What an invitation's link leads to, as far as answering it goes. */
export interface AnswerableInvitation {
  id: number;
  companyId: number;
  role: CompanyRole;
  email: string;
  status: InvitationStatus;
  expiresAt: Date;
}

export const answerableColumns = {
  id: invitations.id,
  companyId: invitations.companyId,
  role: invitations.role,
  email: invitations.email,
  status: invitations.status,
  expiresAt: invitations.expiresAt,
};

/** An invitation found by one of its links' tokens: the mailed one proves the address, the one shown to the inviter does not. */
export interface LinkedInvitation extends AnswerableInvitation {
  provesAddress: boolean;
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export const isExpired = (invitation: { status: InvitationStatus; expiresAt: Date }, clock: Clock) =>
  invitation.status === "pending" && invitation.expiresAt.getTime() <= clock.now().getTime();

/** Why an invitation can no longer be answered: 409 once accepted, 410 once expired, declined or revoked. */
function spentError(invitation: { status: InvitationStatus; expiresAt: Date }, clock: Clock): HttpError | null {
  if (invitation.status === "accepted") return conflict("This invitation was already accepted");
  if (invitation.status === "declined") return new HttpError(410, "This invitation was declined");
  if (invitation.status === "revoked") return new HttpError(410, "This invitation was withdrawn. Ask for a new one.");
  if (isExpired(invitation, clock)) return new HttpError(410, "This invitation has expired. Ask for a new one.");
  return null;
}

/** The invitation one of whose links has this token. */
const hasLinkToken = (token: string) => {
  const digest = linkTokenDigest(token);
  return or(eq(invitations.tokenHash, digest), eq(invitations.sharedTokenHash, digest));
};

async function invitationByToken(db: Queryable, token: string): Promise<LinkedInvitation> {
  const [row] = await db
    .select({ ...answerableColumns, tokenHash: invitations.tokenHash })
    .from(invitations)
    .where(hasLinkToken(token));
  if (!row) throw notFound(badLinkMessage);
  const { tokenHash, ...invitation } = row;
  return { ...invitation, provesAddress: tokenHash === linkTokenDigest(token) };
}

/** The token's invitation, answerable by the holder of `address`: else 404, 409, 410, or 403 naming the invited address masked. */
async function answerableByToken(db: Queryable, clock: Clock, token: string, address: string): Promise<LinkedInvitation> {
  const invitation = await invitationByToken(db, token);
  const spent = spentError(invitation, clock);
  if (spent) throw spent;
  if (!sameAddress(address, invitation.email)) {
    throw forbidden(`This invitation was sent to ${maskEmail(invitation.email)}. Sign in with that address to accept it.`);
  }
  return invitation;
}

/**
 * The invitations matching `where`, newest first, each with its company's name and who sent it ("A board member"
 * once the inviter's account is gone).
 */
async function invitationsWithInviter(db: Queryable, where: SQL | undefined) {
  const rows = await db
    .select({ ...answerableColumns, companyName: companies.name, ...nameColumns })
    .from(invitations)
    .innerJoin(companies, eq(companies.id, invitations.companyId))
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(where)
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
  return rows.map(({ firstName, lastName, username, ...row }) => ({
    ...row,
    inviterName: displayName({ firstName, lastName, username }) || "A board member",
  }));
}

/** POST /api/invitations/preview: what either link offers, to anyone holding it (nothing of who holds the address). */
export async function previewInvitation({ db, clock }: ServiceDeps<"db" | "clock">, token: string): Promise<InvitationPreview> {
  const [row] = await invitationsWithInviter(db, hasLinkToken(token));
  if (!row) throw notFound(badLinkMessage);
  return {
    companyName: row.companyName,
    role: row.role,
    inviterName: row.inviterName,
    email: maskEmail(row.email),
    expiresAt: row.expiresAt.toISOString(),
    status: isExpired(row, clock) ? "expired" : row.status,
  };
}

/**
 * The invitation answered by `userId`, in the caller's transaction: marked accepted only if still pending and
 * unexpired (a conditional UPDATE, so two answers at once cannot both win), the membership made, the address
 * proved when the invitation was answered by a way only its holder has, the company made active when the account
 * has none. Nothing of it stays if any step fails.
 */
export async function joinByInvitation(
  tx: Queryable,
  deps: ServiceDeps<"clock" | "platformAdmins">,
  invitation: LinkedInvitation,
  userId: number,
): Promise<InvitationAccepted & { user: UserRow }> {
  const { clock } = deps;
  const now = clock.now();
  const [taken] = await tx
    .update(invitations)
    .set({ status: "accepted", respondedAt: now })
    .where(and(eq(invitations.id, invitation.id), eq(invitations.status, "pending"), gt(invitations.expiresAt, now)))
    .returning(answerableColumns);
  if (!taken) {
    const [current] = await tx.select(answerableColumns).from(invitations).where(eq(invitations.id, invitation.id));
    throw (current && spentError(current, clock)) ?? notFound(badLinkMessage);
  }
  const added = await tx
    .insert(memberships)
    .values({ userId, companyId: taken.companyId, role: taken.role })
    .onConflictDoNothing()
    .returning({ userId: memberships.userId });
  if (added.length === 0) throw conflict("You are already a member of this company");
  if (invitation.provesAddress) await proveAddress(tx, deps, userId, taken.email);
  // The account "Add Member" made for the address gives way to its holder's all the same.
  else await releaseWaitingAccounts(tx, taken.email, userId);
  const [user] = await tx
    .update(users)
    .set({ activeCompanyId: sql`coalesce(${users.activeCompanyId}, ${taken.companyId})` })
    .where(eq(users.id, userId))
    .returning();
  if (!user) throw new Error("the joining account is missing");
  await recordAudit(tx, clock, {
    actorId: userId,
    companyId: taken.companyId,
    action: "member.join",
    targetType: "user",
    targetId: userId,
    details: { role: taken.role, invitationId: taken.id },
  });
  return { companyId: taken.companyId, role: taken.role, user };
}

/** An acceptance in one transaction: 409 when another account proved the address at the same moment (the unique index on proved addresses). */
async function acceptInTransaction(db: Database, accept: (tx: Queryable) => Promise<InvitationAccepted>): Promise<InvitationAccepted> {
  try {
    return await db.transaction(accept);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(addressProvedByAnotherMessage);
    throw error;
  }
}

/** POST /api/invitations/accept: the signed-in holder of the invited address joins by either link's token. */
export async function acceptInvitationByLink(
  deps: ServiceDeps<"db" | "clock" | "platformAdmins">,
  caller: UserRow,
  token: string,
): Promise<InvitationAccepted> {
  return acceptInTransaction(deps.db, async (tx) => {
    const invitation = await answerableByToken(tx, deps.clock, token, caller.email);
    const { companyId, role } = await joinByInvitation(tx, deps, invitation, caller.id);
    return { companyId, role };
  });
}

/** An invitation a registration carries: checked before anything is written, with the account "Add Member" made for its address. */
export interface RegistrationInvitation extends LinkedInvitation {
  /** The unclaimed account made for the address, which the registration replaces; null when there is none. */
  waitingAccountId: number | null;
}

/** Registering with an invitation's token (either link's): it must be answerable and sent to the address registered. */
export async function invitationForRegistration(
  { db, clock }: ServiceDeps<"db" | "clock">,
  token: string,
  address: string,
): Promise<RegistrationInvitation> {
  const invitation = await answerableByToken(db, clock, token, address);
  const [waiting] = await db.select({ id: users.id }).from(users).where(waitingAccountsFor(invitation.email)).limit(1);
  return { ...invitation, waitingAccountId: waiting?.id ?? null };
}

/** GET /api/invitations: pending, unexpired invitations to the caller's verified address. */
export async function listMyInvitations({ db, clock }: ServiceDeps<"db" | "clock">, caller: UserRow): Promise<MyInvitation[]> {
  if (!caller.emailVerified || caller.email === "") return [];
  const rows = await invitationsWithInviter(
    db,
    and(equalsIgnoringCase(invitations.email, caller.email), eq(invitations.status, "pending"), gt(invitations.expiresAt, clock.now())),
  );
  return rows.map((row) => ({
    id: row.id,
    companyName: row.companyName,
    role: row.role,
    inviterName: row.inviterName,
    expiresAt: row.expiresAt.toISOString(),
  }));
}

/**
 * The owner of an invitation answered by id: the caller, only while it is pending, unexpired and sent to the
 * caller's verified address; null otherwise, so anyone else's is a 404 like one that does not exist.
 */
export async function invitationOwnerOf(
  { db, clock }: ServiceDeps<"db" | "clock">,
  callerId: number,
  invitationId: number,
): Promise<number | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(invitations)
    .innerJoin(
      users,
      and(
        eq(users.id, callerId),
        eq(users.emailVerified, true),
        ne(users.email, ""),
        sql`lower(${users.email}) = lower(${invitations.email})`,
      ),
    )
    .where(and(eq(invitations.id, invitationId), eq(invitations.status, "pending"), gt(invitations.expiresAt, clock.now())));
  return row?.id ?? null;
}

/** POST /api/invitations/:id/accept (the guard checked the invitation is the caller's). */
export async function acceptInvitation(
  deps: ServiceDeps<"db" | "clock" | "platformAdmins">,
  callerId: number,
  invitationId: number,
): Promise<InvitationAccepted> {
  return acceptInTransaction(deps.db, async (tx) => {
    const [invitation] = await tx.select(answerableColumns).from(invitations).where(eq(invitations.id, invitationId));
    if (!invitation) throw notFound(invitationNotFoundMessage);
    // Listed only to the account that proved the address: answering it keeps the address proved.
    const { companyId, role } = await joinByInvitation(tx, deps, { ...invitation, provesAddress: true }, callerId);
    return { companyId, role };
  });
}

/** POST /api/invitations/:id/decline (the guard checked the invitation is the caller's). */
export async function declineInvitation({ db, clock }: ServiceDeps<"db" | "clock">, callerId: number, invitationId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [declined] = await tx
      .update(invitations)
      .set({ status: "declined", respondedAt: clock.now() })
      .where(and(eq(invitations.id, invitationId), eq(invitations.status, "pending")))
      .returning({ id: invitations.id, companyId: invitations.companyId });
    if (!declined) throw notFound(invitationNotFoundMessage);
    await recordAudit(tx, clock, {
      actorId: callerId,
      companyId: declined.companyId,
      action: "member.invite_declined",
      targetType: "invitation",
      targetId: declined.id,
    });
  });
}
