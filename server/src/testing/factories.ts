import { eq } from "drizzle-orm";
import type { CompanyRole } from "../../../shared/roles";
import type { Database } from "../db/client";
import { companies, memberships, users } from "../db/schema";

/** Test data written straight to the database, for tests whose subject is not company creation itself. */
export async function createCompany(db: Database, fields: { name?: string; founderId?: number; activate?: boolean } = {}) {
  const [company] = await db
    .insert(companies)
    .values({ name: fields.name ?? "Acme Holdings", industry: "Technology", location: "London, United Kingdom", stage: "seed" })
    .returning();
  if (!company) throw new Error("company insert failed");
  if (fields.founderId != null) await addMember(db, company.id, fields.founderId, "founder", fields.activate ?? true);
  return company;
}

/** Adds a membership; with `activate`, also makes the company the user's active one. */
export async function addMember(db: Database, companyId: number, userId: number, role: CompanyRole, activate = true) {
  await db.insert(memberships).values({ companyId, userId, role });
  if (activate) await db.update(users).set({ activeCompanyId: companyId }).where(eq(users.id, userId));
}

/** The JSON `content` of a meeting document as the client sends it: two hours from `start`, no participants unless given. */
export function meetingContent(start: Date, overrides: Record<string, unknown> = {}) {
  return {
    type: "meeting",
    title: "Q3 Board Meeting",
    date: start.toISOString(),
    endDate: new Date(start.getTime() + 2 * 60 * 60 * 1000).toISOString(),
    location: "Virtual (Zoom)",
    status: "pending",
    participants: [] as string[],
    ...overrides,
  };
}
