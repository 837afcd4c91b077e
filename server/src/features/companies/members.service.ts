import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { AddMemberResult, CompanyMember, RoleChangeResult, addMemberSchema, inviteSchema } from "../../../../shared/companies";
import { can, deniedMessage } from "../../../../shared/permissions";
import type { CompanyRole } from "../../../../shared/roles";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import { equalsIgnoringCase } from "../../db/case-insensitive";
import type { Queryable } from "../../db/client";
import { companies, invitations, memberships, users } from "../../db/schema";
import { nameColumns } from "../../db/columns";
import { HttpError, conflict, forbidden, notFound } from "../../http/errors";
import { notify } from "../notifications/notifications.service";
import { assertMaySeat, type InvitingActor } from "./company-invitations.service";
import { invitedAnswer, newInvitationLinks, queueInvitationMail } from "./invitation-mail";
import { alreadyMemberMessage } from "./invitations.service";

export type AddMemberBody = z.output<typeof addMemberSchema>;
export type InviteBody = z.output<typeof inviteSchema>;

const ownRoleMessage = "You cannot change your own role";
const lastFounderMessage = "A company must keep at least one founder";

/** GET /api/companies/:companyId/members, as `viewerId` sees them. */
export async function listMembers({ db }: ServiceDeps<"db">, companyId: number, viewerId: number): Promise<CompanyMember[]> {
  return membersOf(db, companyId, viewerId);
}

/**
 * The members of a company in two queries whatever their number: the members, then the other memberships
 * those members hold in companies the viewer also sits on (a member's other boards are theirs to tell, not the
 * list's, unless the viewer shares them).
 */
async function membersOf(db: Queryable, companyId: number, viewerId: number): Promise<CompanyMember[]> {
  const rows = await db
    .select({
      id: users.id,
      ...nameColumns,
      email: users.email,
      role: memberships.role,
      profileImageUrl: users.profileImageUrl,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.companyId, companyId))
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
        sql`${memberships.companyId} in (select ${memberships.companyId} from ${memberships} where ${memberships.userId} = ${viewerId})`,
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

/**
 * POST /api/companies/:id/members (the guard has checked founder or admin): always an invitation, answered the
 * same whoever holds the address; nobody joins until the address's holder accepts. New links each time (a
 * pending invitation to the address gets the new links, role and expiry; its old links die), but a founder's
 * pending invitation is changed only by a founder. With the Add Member form's password and an address no account
 * has proved, an account is made for the address that cannot sign in: its holder claims it by a link with a
 * password of their own. The form's password is never kept.
 */
export async function addMember(
  deps: ServiceDeps<"db" | "clock" | "appSecret" | "mail" | "limits">,
  actor: InvitingActor,
  company: { id: number; name: string },
  input: AddMemberBody | InviteBody,
): Promise<AddMemberResult> {
  const { db, clock } = deps;
  const mayAssignFounder = can(actor.role, "assignFounder");
  if (input.role === "founder" && !mayAssignFounder) throw forbidden("Only a founder can add a founder");
  assertMaySeat(clock, actor, input.role);
  const email = input.email.trim();
  const links = newInvitationLinks(clock);

  return db.transaction(async (tx): Promise<AddMemberResult> => {
    // Only a proved address says who a member is: an unverified one may be anybody's.
    const [member] = await tx
      .select({ id: users.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.companyId, company.id), eq(users.emailVerified, true), equalsIgnoringCase(users.email, email)))
      .limit(1);
    if (member) throw conflict(alreadyMemberMessage);

    if ("password" in input) await makeAccountToClaim(tx, email, input);
    // A pending invitation to the address takes the new links, role and expiry (its old links die), unless it is
    // a founder's and the actor may not make founders; the partial unique index on pending invitations makes two
    // at once one.
    const result = await tx.execute(sql`
      insert into ${invitations} (company_id, email, role, invited_by, token_hash, shared_token_hash, status, expires_at, created_at)
      values (${company.id}, ${email}, ${input.role}, ${actor.userId}, ${links.mailed.tokenHash}, ${links.shared.tokenHash}, 'pending',
        ${links.expiresAt.toISOString()}, ${clock.now().toISOString()})
      on conflict (company_id, lower(email)) where status = 'pending' do update
        set role = excluded.role, invited_by = excluded.invited_by, token_hash = excluded.token_hash,
          shared_token_hash = excluded.shared_token_hash, expires_at = excluded.expires_at
        where ${mayAssignFounder} or ${invitations}.role <> 'founder'
      returning id, email, role, created_at, expires_at`);
    type Row = { id: number; email: string; role: CompanyRole; created_at: Date | string; expires_at: Date | string };
    const [row] = (result as unknown as { rows: Row[] }).rows;
    if (!row) throw forbidden(deniedMessage("assignFounder"));
    const invited = {
      id: row.id,
      email: row.email,
      role: row.role,
      createdAt: new Date(row.created_at),
      expiresAt: new Date(row.expires_at),
    };
    await recordAudit(tx, clock, {
      actorId: actor.userId,
      companyId: company.id,
      action: "member.invite",
      targetType: "invitation",
      targetId: invited.id,
      details: { role: input.role },
    });
    await queueInvitationMail(tx, deps, { ...invited, companyId: company.id, inviterId: actor.userId }, links.mailed.token);
    return invitedAnswer(deps, invited, links.shared.token);
  });
}

/**
 * The account Add Member makes for an address nobody has proved (username = the address, no password, unverified),
 * unless it made one before; none when an account has proved the address (its holder accepts as themselves) or
 * another account already uses the address as its username.
 */
async function makeAccountToClaim(tx: Queryable, email: string, names: { firstName: string; lastName: string }): Promise<void> {
  const [proved] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.emailVerified, true), equalsIgnoringCase(users.email, email)))
    .limit(1);
  if (proved) return;
  await tx
    .insert(users)
    .values({
      username: email,
      email,
      passwordHash: "",
      passwordSet: false,
      emailVerified: false,
      firstName: names.firstName.trim(),
      lastName: names.lastName.trim(),
    })
    .onConflictDoNothing();
}

const article = (role: string) => (/^[aeiou]/i.test(role) ? "an" : "a");

type MembershipRow = { userId: number; role: CompanyRole };

/**
 * The company's memberships, locked (SELECT ... FOR UPDATE, in user order) until the transaction ends: whoever
 * changes who the founders are takes them first, so two such changes at once are made one after the other.
 */
function lockMemberships(tx: Queryable, companyId: number): Promise<MembershipRow[]> {
  return tx
    .select({ userId: memberships.userId, role: memberships.role })
    .from(memberships)
    .where(eq(memberships.companyId, companyId))
    .orderBy(asc(memberships.userId))
    .for("update");
}

/** Whether `member` is the only founder among the locked memberships: they may neither leave nor stop being one. */
const isLastFounder = (rows: readonly MembershipRow[], member: MembershipRow) =>
  member.role === "founder" && rows.filter((row) => row.role === "founder").length <= 1;

/**
 * DELETE /api/companies/:id/members/me: the caller leaves. The company's membership rows are locked as for a role
 * change, so the last founder cannot leave, even while another founder leaves at the same moment.
 */
export async function leaveCompany({ db, clock }: ServiceDeps<"db" | "clock">, userId: number, companyId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const rows = await lockMemberships(tx, companyId);
    const own = rows.find((row) => row.userId === userId);
    if (!own) throw forbidden("You are not a member of this company");
    if (isLastFounder(rows, own))
      throw new HttpError(409, "You are the company's last founder: make someone else a founder before you leave");
    await tx.delete(memberships).where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId)));
    await tx
      .update(users)
      .set({ activeCompanyId: null })
      .where(and(eq(users.id, userId), eq(users.activeCompanyId, companyId)));
    await recordAudit(tx, clock, {
      actorId: userId,
      companyId,
      action: "member.leave",
      targetType: "user",
      targetId: userId,
      details: { role: own.role },
    });
  });
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
    const rows = await lockMemberships(tx, companyId);
    const actor = rows.find((row) => row.userId === actorId);
    if (!actor || !can(actor.role, "changeRole")) throw forbidden(deniedMessage("changeRole"));
    const target = rows.find((row) => row.userId === targetUserId);
    if (!target) throw notFound("Member not found");
    if ((role === "founder" || target.role === "founder") && !can(actor.role, "assignFounder"))
      throw forbidden(deniedMessage("assignFounder"));
    if (role !== "founder" && isLastFounder(rows, target)) throw new HttpError(409, lastFounderMessage);
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
