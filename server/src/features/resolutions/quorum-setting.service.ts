// The company's quorum setting: the share of those who may vote on a resolution whose votes make a quorum (none: more
// than half).
import { eq } from "drizzle-orm";
import { quorumRule, type QuorumPercent } from "../../../../shared/resolutions";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import { companies } from "../../db/schema";
import type { TenantContext } from "../../http/request-context";

type QuorumSetting = { quorumPercent: QuorumPercent; rule: string };

/** `GET /api/companies/:companyId/quorum`. */
export async function quorumSetting({ db }: ServiceDeps<"db">, companyId: number): Promise<QuorumSetting> {
  const [row] = await db.select({ quorumPercent: companies.quorumPercent }).from(companies).where(eq(companies.id, companyId));
  const quorumPercent = row?.quorumPercent ?? null;
  return { quorumPercent, rule: quorumRule(quorumPercent) };
}

/** `PUT /api/companies/:companyId/quorum`: the change is audited with what it was before. */
export async function updateQuorumSetting(
  deps: ServiceDeps<"db" | "clock">,
  tenant: TenantContext,
  quorumPercent: QuorumPercent,
): Promise<QuorumSetting> {
  await deps.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ quorumPercent: companies.quorumPercent })
      .from(companies)
      .where(eq(companies.id, tenant.company.id))
      .for("update");
    await tx.update(companies).set({ quorumPercent }).where(eq(companies.id, tenant.company.id));
    await recordAudit(tx, deps.clock, {
      actorId: tenant.user.id,
      companyId: tenant.company.id,
      action: "company.quorum_changed",
      targetType: "company",
      targetId: tenant.company.id,
      details: { from: before?.quorumPercent ?? null, to: quorumPercent },
    });
  });
  return { quorumPercent, rule: quorumRule(quorumPercent) };
}
