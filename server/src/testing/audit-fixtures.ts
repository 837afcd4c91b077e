import { sql } from "drizzle-orm";
import { recordAudit, type AuditEvent } from "../db/audit";
import type { TestContext } from "./test-context";

/** The audit trail's tests: companies with events written straight through recordAudit, and the chain's head. */
export function auditFixtures(ctx: Pick<TestContext, "db" | "clock" | "board">) {
  /** A company of its own for a test, with events written straight through recordAudit. */
  async function companyWithFounder(name: string) {
    const board = await ctx.board(name, { firstName: "Fay", lastName: "Founder" });
    return board;
  }

  const event = (companyId: number, fields: Partial<AuditEvent> = {}): AuditEvent => ({
    actorId: null,
    companyId,
    action: "company.update",
    targetType: "company",
    targetId: companyId,
    ...fields,
  });

  async function record(companyId: number, fields: Partial<AuditEvent> = {}) {
    await ctx.db.transaction((tx) => recordAudit(tx, ctx.clock, event(companyId, fields)));
  }

  async function headRow(companyId: number) {
    const result = await ctx.db.execute(sql`select seq, hash from audit_chain_heads where chain_key = ${companyId}`);
    return (result as unknown as { rows: { seq: number; hash: string }[] }).rows[0];
  }

  return { companyWithFounder, event, record, headRow };
}
