import { asc, eq, sql } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { companies, memberships, users } from "../../db/schema";

/**
 * Every member of every company that does (or does not) require a second factor of its members, with their address
 * and the company's name: by user, then by company name as lists show it.
 */
export function membersOfCompanies(db: Queryable, { requiringSecondFactor }: { requiringSecondFactor: boolean }) {
  return db
    .select({ userId: users.id, email: users.email, companyId: companies.id, companyName: companies.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(companies, eq(companies.id, memberships.companyId))
    .where(eq(companies.requireSecondFactor, requiringSecondFactor))
    .orderBy(asc(users.id), sql`lower(${companies.name})`, asc(companies.id));
}
