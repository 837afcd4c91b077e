import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  AddMemberResult,
  CompanyMember,
  PendingInvitation,
  RoleChangeResult,
  addMemberSchema,
  inviteSchema,
} from "../../../../shared/companies";
import { can, deniedMessage } from "../../../../shared/permissions";
import type { CompanyRole } from "../../../../shared/roles";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import { equalsIgnoringCase } from "../../db/case-insensitive";
import type { Queryable } from "../../db/client";
import { companies, invitations, memberships, users } from "../../db/schema";
import { HttpError, conflict, forbidden, isUniqueViolation, notFound } from "../../http/errors";
import { notify } from "../notifications/notifications.service";
import { enqueueMail } from "../notifications/outbox.service";
import { displayName } from "../../../../shared/people";
import { hashPassword } from "../../http/passwords";

export type AddMemberBody = z.output<typeof addMemberSchema>;
export type InviteBody = z.output<typeof inviteSchema>;

const alreadyMemberMessage = "This person is already a member of the company";
const ownRoleMessage = "You cannot change your own role";
const lastFounderMessage = "A company must keep at least one founder";

/** GET /api/companies/:companyId/members. */
export async function listMembers({ db }: ServiceDeps<"db">, companyId: number): Promise<CompanyMember[]> {
  return membersOf(db, companyId);
}

/**
 * The members of a company in two queries whatever their number: the members, then every other
 * membership those members hold (for "other boards they sit on").
 */
async function membersOf(db: Queryable, companyId: number, onlyUserId?: number): Promise<CompanyMember[]> {
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      email: users.email,
      role: memberships.role,
      profileImageUrl: users.profileImageUrl,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.companyId, companyId), onlyUserId == null ? undefined : eq(memberships.userId, onlyUserId)))
    .orderBy(
      sql`lower(coalesce(nullif(trim(concat_ws(' ', ${users.firstName}, ${users.lastName})), ''), ${users.username}))`,
      asc(users.id),
    );
  if (rows.length === 0) return [];

  const others = await db
    .select({ userId: memberships.userId, id: companies.id, name: companies.name, role: memberships.role })
    .from(memberships)
    .innerJoin(companies, eq(companies.id, memberships.companyId))
    .where(
      and(
        inArray(
          memberships.userId,
          rows.map((row) => row.id),
        ),
        ne(memberships.companyId, companyId),
      ),
    )
    .orderBy(sql`lower(${companies.name})`, asc(companies.id));
  const byUser = new Map<number, CompanyMember["otherCompanies"]>();
  for (const other of others) {
    const list = byUser.get(other.userId) ?? [];
    list.push({ id: other.id, name: other.name, role: other.role });
    byUser.set(other.userId, list);
  }
  return rows.map((row) => {
    const otherCompanies = byUser.get(row.id) ?? [];
    return { ...row, isMultiCompanyMember: otherCompanies.length > 0, otherCompanies };
  });
}

export async function listInvitations({ db }: ServiceDeps<"db">, companyId: number): Promise<PendingInvitation[]> {
  const rows = await db
    .select({ id: invitations.id, email: invitations.email, role: invitations.role, createdAt: invitations.createdAt })
    .from(invitations)
    .where(eq(invitations.companyId, companyId))
    .orderBy(asc(invitations.createdAt), asc(invitations.id));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

async function memberOf(db: Queryable, companyId: number, userId: number): Promise<CompanyMember> {
  const [member] = await membersOf(db, companyId, userId);
  if (!member) throw new Error("membership just written is missing");
  return member;
}

export interface Actor {
  userId: number;
  role: CompanyRole;
}

/**
 * POST /api/companies/:id/members (the guard has checked founder or admin):
 * - an e-mail of an existing account → a membership (the account's password and names are never touched);
 * - with a password and an e-mail no account has → a new account (username = the e-mail) and its membership;
 * - without a password and an unknown e-mail → a pending invitation, turned into a membership when that e-mail registers.
 */
export async function addMember(
  { db, clock }: ServiceDeps<"db" | "clock">,
  actor: Actor,
  company: { id: number; name: string },
  input: AddMemberBody | InviteBody,
): Promise<AddMemberResult> {
  if (input.role === "founder" && !can(actor.role, "assignFounder")) throw forbidden("Only a founder can add a founder");
  const email = input.email.trim();
  // Hashing is slow: do it before the transaction, and only when an account may be created.
  const passwordHash = "password" in input ? await hashPassword(input.password) : null;

  try {
    return await db.transaction(async (tx): Promise<AddMemberResult> => {
      const [existing] = await tx
        .select({ id: users.id, activeCompanyId: users.activeCompanyId })
        .from(users)
        .where(equalsIgnoringCase(users.email, email))
        .limit(1);

      if (existing) {
        const added = await tx
          .insert(memberships)
          .values({ userId: existing.id, companyId: company.id, role: input.role })
          .onConflictDoNothing()
          .returning({ userId: memberships.userId });
        if (added.length === 0) throw conflict(alreadyMemberMessage);
        if (existing.activeCompanyId == null) {
          await tx.update(users).set({ activeCompanyId: company.id }).where(eq(users.id, existing.id));
        }
        await dropInvitation(tx, company.id, email);
        await notify(tx, {
          kind: "memberAdded",
          companyId: company.id,
          recipients: [existing.id],
          title: `You were added to ${company.name}`,
          body: `You are now ${article(input.role)} ${input.role} of ${company.name}.`,
          link: "/board-members",
          at: clock.now(),
        });
        await recordAudit(tx, clock, {
          actorId: actor.userId,
          companyId: company.id,
          action: "member.add",
          targetType: "user",
          targetId: existing.id,
          details: { role: input.role },
        });
        return { status: "added", member: await memberOf(tx, company.id, existing.id) };
      }

      if (passwordHash != null && "firstName" in input) {
        const [created] = await tx
          .insert(users)
          .values({
            username: email,
            email,
            passwordHash,
            firstName: input.firstName.trim(),
            lastName: input.lastName.trim(),
            activeCompanyId: company.id,
          })
          .returning({ id: users.id });
        if (!created) throw new Error("user insert returned nothing");
        await tx.insert(memberships).values({ userId: created.id, companyId: company.id, role: input.role });
        await dropInvitation(tx, company.id, email);
        await recordAudit(tx, clock, {
          actorId: actor.userId,
          companyId: company.id,
          action: "member.create",
          targetType: "user",
          targetId: created.id,
          details: { role: input.role },
        });
        return { status: "created", member: await memberOf(tx, company.id, created.id) };
      }

      // A repeated invitation refreshes the role and the date rather than failing.
      const result = await tx.execute(sql`
        insert into ${invitations} (company_id, email, role, invited_by)
        values (${company.id}, ${email}, ${input.role}, ${actor.userId})
        on conflict (company_id, lower(email)) do update
          set role = excluded.role, invited_by = excluded.invited_by, created_at = now()
        returning id, email, role, created_at`);
      const [invited] = (result as unknown as { rows: { id: number; email: string; role: CompanyRole; created_at: Date | string }[] }).rows;
      if (!invited) throw new Error("invitation upsert returned nothing");
      await recordAudit(tx, clock, {
        actorId: actor.userId,
        companyId: company.id,
        action: "member.invite",
        targetType: "invitation",
        targetId: invited.id,
        details: { role: input.role },
      });
      await queueInvitationMail(tx, actor.userId, company.id, invited.email, input.role);
      return {
        status: "invited",
        invitation: { id: invited.id, email: invited.email, role: invited.role, createdAt: new Date(invited.created_at).toISOString() },
      };
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A concurrent request made the same membership, or an account whose username is this e-mail exists.
    const [holder] = await db
      .select({ id: users.id })
      .from(users)
      .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.companyId, company.id)))
      .where(equalsIgnoringCase(users.email, email));
    throw conflict(holder ? alreadyMemberMessage : "An account already uses this e-mail address as its username");
  }
}

const article = (role: string) => (/^[aeiou]/i.test(role) ? "an" : "a");

/** The invitation e-mail, with the company's invitation message, queued in the invitation's transaction. */
async function queueInvitationMail(tx: Queryable, inviterId: number, companyId: number, email: string, role: CompanyRole): Promise<void> {
  const [row] = await tx
    .select({
      companyName: companies.name,
      invitationMessage: companies.invitationMessage,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
    })
    .from(companies)
    .innerJoin(users, eq(users.id, inviterId))
    .where(eq(companies.id, companyId));
  if (!row) throw new Error("the inviting company or user is missing");
  await enqueueMail(tx, [
    {
      userId: null,
      companyId,
      to: email,
      message: {
        type: "invitation",
        companyName: row.companyName,
        inviterName: displayName(row),
        role,
        email,
        invitationMessage: row.invitationMessage?.trim() || null,
      },
    },
  ]);
}

async function dropInvitation(tx: Queryable, companyId: number, email: string): Promise<void> {
  await tx.delete(invitations).where(and(eq(invitations.companyId, companyId), equalsIgnoringCase(invitations.email, email)));
}

/**
 * PATCH /api/users/:userId/role. Rules: founders and admins change roles, never their own; to or from
 * founder only by a founder; at least one founder always remains. The company's membership rows are locked
 * (SELECT ... FOR UPDATE) and the actor's role re-read under the lock, so two founders demoting each other
 * at once cannot both succeed.
 */
export async function changeRole(
  { db, clock }: ServiceDeps<"db" | "clock">,
  actorId: number,
  companyId: number,
  targetUserId: number,
  role: CompanyRole,
): Promise<RoleChangeResult> {
  if (targetUserId === actorId) throw forbidden(ownRoleMessage);
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ userId: memberships.userId, role: memberships.role })
      .from(memberships)
      .where(eq(memberships.companyId, companyId))
      .orderBy(asc(memberships.userId))
      .for("update");
    const actor = rows.find((row) => row.userId === actorId);
    if (!actor || !can(actor.role, "changeRole")) throw forbidden(deniedMessage("changeRole"));
    const target = rows.find((row) => row.userId === targetUserId);
    if (!target) throw notFound("Member not found");
    if ((role === "founder" || target.role === "founder") && !can(actor.role, "assignFounder"))
      throw forbidden(deniedMessage("assignFounder"));
    if (target.role === "founder" && role !== "founder" && rows.filter((row) => row.role === "founder").length <= 1) {
      throw new HttpError(409, lastFounderMessage);
    }
    if (target.role !== role) {
      const [company] = await tx.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId));
      await notify(tx, {
        kind: "roleChanged",
        companyId,
        recipients: [targetUserId],
        title: `Your role in ${company?.name ?? "the company"} changed`,
        body: `You are now ${article(role)} ${role} (before: ${target.role}).`,
        link: "/board-members",
        at: clock.now(),
      });
      await tx
        .update(memberships)
        .set({ role })
        .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, targetUserId)));
      await recordAudit(tx, clock, {
        actorId,
        companyId,
        action: "member.role",
        targetType: "user",
        targetId: targetUserId,
        details: { from: target.role, to: role },
      });
    }
    return { id: targetUserId, companyId, role };
  });
}
