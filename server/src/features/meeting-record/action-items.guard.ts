import type { Request } from "express";
import { eq } from "drizzle-orm";
import type { ServiceDeps } from "../../app-deps";
import { actionItems } from "../../db/schema";
import { idParam } from "../../http/validate";

/** The company of an action item, for the "thing" guard; null when there is none. */
async function actionItemCompanyOf({ db }: ServiceDeps<"db">, itemId: number): Promise<number | null> {
  const [row] = await db.select({ companyId: actionItems.companyId }).from(actionItems).where(eq(actionItems.id, itemId));
  return row?.companyId ?? null;
}

/** The guard options of a route on one action item (`:id`): its company is the item's. */
export function actionItemCompanyGuard(deps: ServiceDeps<"db">): { companyOf: (req: Request) => Promise<number | null> } {
  return { companyOf: (req: Request) => actionItemCompanyOf(deps, idParam(req.params.id)) };
}
