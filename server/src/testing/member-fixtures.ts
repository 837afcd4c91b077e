import { and, eq, sql } from "drizzle-orm";
import type { CompanyRole } from "../../../shared/roles";
import { memberships, users } from "../db/schema";
import { addMember } from "./factories";
import { markSessionsProved } from "./second-factor-fixtures";
import type { TestContext } from "./test-context";

/** Boards and their members for the members tests: seated straight in the database, and their roles read back. */
export function memberFixtures(ctx: Pick<TestContext, "db" | "clock" | "board" | "signUp" | "app" | "noteSecret">) {
  let counter = 0;
  const uniqueEmail = (prefix: string) => `${prefix}${++counter}-${Date.now().toString(36)}@example.com`;

  /** A founder whose session is proved afresh, as seating an admin or a founder needs (its refusal is tested on its own). */
  async function companyWithFounder(name = "Board Co") {
    const board = await ctx.board(name, { firstName: "Fiona", lastName: "Founder" });
    await markSessionsProved(ctx, board.founder.id);
    return board;
  }

  async function memberIn(companyId: number, role: CompanyRole, fields: { firstName?: string } = {}) {
    const user = await ctx.signUp(fields);
    await addMember(ctx.db, companyId, user.id, role);
    return user;
  }

  async function roleOf(companyId: number, userId: number) {
    const [row] = await ctx.db
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId)));
    return row?.role ?? null;
  }

  /** The accounts whose address is `address`, whatever its case. */
  const accountsWith = (address: string) =>
    ctx.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${address.toLowerCase()}`);

  return { uniqueEmail, companyWithFounder, memberIn, roleOf, accountsWith };
}
