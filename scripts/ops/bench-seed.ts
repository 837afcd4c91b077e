// What every part of `npm run bench` seeds first: a company and its people, straight into the database.
import { randomUUID } from "node:crypto";
import type { CompanyRole } from "../../shared/roles";
import type { Database } from "../../server/src/db/client";
import { companies, memberships, users } from "../../server/src/db/schema";

/**
 * A company in London and `people` users, each a member with the role `roleOf(i)` and the company active. Usernames
 * are `<handle><random><i>` (a rerun on the same database adds new ones); names `<firstName><i> <lastName>`.
 */
export async function insertBoard(
  db: Database,
  board: {
    name: string;
    stage: (typeof companies.$inferInsert)["stage"];
    handle: string;
    firstName: string;
    lastName: string;
    people: number;
    roleOf: (i: number) => CompanyRole;
  },
): Promise<{ companyId: number; people: { id: number }[] }> {
  const [company] = await db
    .insert(companies)
    .values({ name: board.name, industry: "Technology", location: "London, United Kingdom", stage: board.stage })
    .returning({ id: companies.id });
  const companyId = company!.id;
  const suffix = randomUUID().slice(0, 8);
  const people = await db
    .insert(users)
    .values(
      Array.from({ length: board.people }, (_, i) => ({
        username: `${board.handle}${suffix}${i}`,
        email: `${board.handle}${suffix}${i}@example.com`,
        passwordHash: "not-a-password",
        firstName: `${board.firstName}${i}`,
        lastName: board.lastName,
        activeCompanyId: companyId,
      })),
    )
    .returning({ id: users.id });
  await db.insert(memberships).values(people.map(({ id }, i) => ({ userId: id, companyId, role: board.roleOf(i) })));
  return { companyId, people };
}
