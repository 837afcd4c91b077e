import { and, asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Company, CompanySettings, CompanySummary, companyProfileSchema } from "../../../../shared/companies";
import { can } from "../../../../shared/permissions";
import type { CompanyRole } from "../../../../shared/roles";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import { rateRule } from "../../limits";
import { companies, memberships, users } from "../../db/schema";
import { HttpError, forbidden, notFound } from "../../http/errors";
import { assertFreshProof } from "../../http/fresh-proof";
import { countAgainstLimit } from "../../http/rate-limit";
import type { AuthContext, UserRow } from "../../http/request-context";
import { tellAccountHolder } from "../notifications/outbox.service";
import { listInvitations } from "./company-invitations.service";
import { listMembers } from "./members.service";

export type CompanyProfile = z.output<typeof companyProfileSchema>;
type CompanyRow = typeof companies.$inferSelect;

function toCompany(row: CompanyRow): Company {
  return {
    id: row.id,
    name: row.name,
    industry: row.industry,
    location: row.location,
    stage: row.stage,
    description: row.description,
    logoUrl: row.logoUrl,
    website: row.website,
    employeeCount: row.employeeCount,
    invitationMessage: row.invitationMessage,
    requireSecondFactor: row.requireSecondFactor,
    writtenResolutionRule: row.writtenResolutionRule,
    writtenLapseDays: row.writtenLapseDays,
    writtenAllowWithdrawal: row.writtenAllowWithdrawal,
    writtenMeetingDemandPercent: row.writtenMeetingDemandPercent,
    readReceipts: row.readReceipts,
    notesRetentionDays: row.notesRetentionDays,
    searchLanguage: row.searchLanguage,
    createdAt: row.createdAt.toISOString(),
  };
}

const orNull = (value: string | null | undefined) => (value == null || value.trim() === "" ? null : value.trim());
const keepOrNull = (value: string | null | undefined) => (value === undefined ? undefined : orNull(value));

/** The columns a profile body sets; an absent optional field keeps what is stored, an empty one clears it. */
function profileColumns(input: CompanyProfile) {
  return {
    name: input.name,
    industry: input.industry,
    location: input.location,
    stage: input.stage,
    description: keepOrNull(input.description),
    // A data URL is kept byte for byte (no trimming inside it).
    logoUrl: input.logoUrl === undefined ? undefined : input.logoUrl || null,
    website: keepOrNull(input.website),
    employeeCount: keepOrNull(input.employeeCount),
    invitationMessage: keepOrNull(input.invitationMessage),
    requireSecondFactor: input.requireSecondFactor,
    writtenResolutionRule: input.writtenResolutionRule,
    writtenLapseDays: input.writtenLapseDays,
    writtenAllowWithdrawal: input.writtenAllowWithdrawal,
    writtenMeetingDemandPercent: input.writtenMeetingDemandPercent,
    readReceipts: input.readReceipts,
    notesRetentionDays: input.notesRetentionDays,
    // A change re-indexes the company's whole record in this transaction (a trigger of migration 0019).
    searchLanguage: input.searchLanguage,
  };
}

/** Who changes a company's settings: the user, and what their session has proved. */
export type CompanyActor = Pick<AuthContext, "user" | "secondFactorAt" | "reauthAt">;

/**
 * Requiring a second factor of everyone is refused to a caller without one, who would otherwise lock themselves out
 * of the company at once; and to a session that did not pass theirs, which the requirement would refuse too.
 */
function assertMayRequireSecondFactor(actor: CompanyActor, input: CompanyProfile): void {
  if (input.requireSecondFactor !== true) return;
  const refuse = (message: string) => new HttpError(400, message, {}, [{ path: "requireSecondFactor", message }]);
  if (!actor.user.secondFactor) throw refuse("Set up two-factor sign-in for yourself first");
  if (actor.secondFactorAt === null) throw refuse("Sign in again with your second factor first");
}

/**
 * POST /api/companies: the company and the creator's founder membership, in one transaction. The active company is
 * not changed. Counted against the companies the creator may found in a day (429 with Retry-After beyond it): the
 * limits kept per company (invitations, AI calls) would otherwise grow with every company founded.
 */
export async function createCompany(
  deps: ServiceDeps<"db" | "clock" | "limits">,
  actor: CompanyActor,
  input: CompanyProfile,
): Promise<Company> {
  const { db, clock } = deps;
  assertMayRequireSecondFactor(actor, input);
  const creator = actor.user;
  return db.transaction(async (tx) => {
    // In the transaction: a company that is not made is not counted.
    await countAgainstLimit(tx, clock, rateRule(deps, "companiesPerUser"), String(creator.id));
    const [row] = await tx.insert(companies).values(profileColumns(input)).returning();
    if (!row) throw new Error("company insert returned nothing");
    await tx.insert(memberships).values({ userId: creator.id, companyId: row.id, role: "founder" });
    await recordAudit(tx, clock, {
      actorId: creator.id,
      companyId: row.id,
      action: "company.create",
      targetType: "company",
      targetId: row.id,
    });
    return toCompany(row);
  });
}

/** GET /api/companies: the caller's companies with their role in each, by name. */
export async function listCompanies({ db }: ServiceDeps<"db">, userId: number): Promise<CompanySummary[]> {
  return db
    .select({
      id: companies.id,
      name: companies.name,
      logoUrl: companies.logoUrl,
      industry: companies.industry,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(companies, eq(companies.id, memberships.companyId))
    .where(eq(memberships.userId, userId))
    .orderBy(sql`lower(${companies.name})`, asc(companies.id));
}

/** GET /api/companies/:id/settings: the profile and the members; the invitations for founders and admins only. */
export async function getCompanySettings(
  deps: ServiceDeps<"db" | "clock">,
  companyId: number,
  viewer: { id: number; role: CompanyRole },
): Promise<CompanySettings> {
  const [row] = await deps.db.select().from(companies).where(eq(companies.id, companyId));
  if (!row) throw notFound("Company not found");
  const members = await listMembers(deps, companyId, viewer.id);
  if (!can(viewer.role, "manageMembers")) return { company: toCompany(row), members };
  return { company: toCompany(row), members, invitations: await listInvitations(deps, companyId) };
}

/**
 * PUT /api/companies/:id (the guard has checked founder or admin). Turning the second-factor requirement off is a
 * security change: it needs a freshly proved session (401 reauth_required), and the actor is told by e-mail.
 */
export async function updateCompany(
  { db, clock }: ServiceDeps<"db" | "clock">,
  actor: CompanyActor,
  companyId: number,
  input: CompanyProfile,
): Promise<Company> {
  assertMayRequireSecondFactor(actor, input);
  return db.transaction(async (tx) => {
    // Read under the row's lock: whether this turns the requirement off is known for certain before the write.
    const [before] = await tx
      .select({ requireSecondFactor: companies.requireSecondFactor })
      .from(companies)
      .where(eq(companies.id, companyId))
      .for("update");
    if (!before) throw notFound("Company not found");
    const turnsOff = before.requireSecondFactor && input.requireSecondFactor === false;
    if (turnsOff) assertFreshProof(clock, actor);
    const [row] = await tx.update(companies).set(profileColumns(input)).where(eq(companies.id, companyId)).returning();
    if (!row) throw notFound("Company not found");
    if (turnsOff) {
      await tellAccountHolder(tx, clock, actor.user, `You turned off the two-factor sign-in requirement of ${row.name}.`);
    }
    const fields = Object.keys(input).filter((key) => key !== "logoUrl" || input.logoUrl !== undefined);
    await recordAudit(tx, clock, {
      actorId: actor.user.id,
      companyId,
      action: "company.update",
      targetType: "company",
      targetId: companyId,
      // Whether the company requires a second factor is a security setting: the record keeps its value.
      details: input.requireSecondFactor === undefined ? { fields } : { fields, requireSecondFactor: input.requireSecondFactor },
    });
    return toCompany(row);
  });
}

/**
 * Makes a company the user's active one. One guarded UPDATE: it only happens while the membership exists,
 * so a company the user does not belong to (or that does not exist) answers 403 and changes nothing.
 */
export async function setActiveCompany(
  { db }: ServiceDeps<"db">,
  userId: number,
  companyId: number,
): Promise<{ user: UserRow; role: CompanyRole }> {
  const [user] = await db
    .update(users)
    .set({ activeCompanyId: companyId })
    .where(
      and(
        eq(users.id, userId),
        sql`exists (select 1 from ${memberships} where ${memberships.userId} = ${userId} and ${memberships.companyId} = ${companyId})`,
      ),
    )
    .returning();
  if (!user) throw forbidden("You are not a member of this company");
  const [membership] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.companyId, companyId)));
  // Removed between the two statements: report it as what it now is.
  if (!membership) throw forbidden("You are not a member of this company");
  return { user, role: membership.role };
}
