// A nudge: the proposer of a written resolution, or a founder or admin of its company, reminds a director who has not
// signed it, at most once a day each.
import { eq, sql } from "drizzle-orm";
import { displayName } from "../../../../shared/people";
import type { CompanyRole } from "../../../../shared/roles";
import type { ServiceDeps } from "../../app-deps";
import { formatUtc } from "../../clock";
import { recordAudit } from "../../db/audit";
import { resolutions, users } from "../../db/schema";
import { conflict, forbidden, notFound } from "../../http/errors";
import { assertSessionPassedSecondFactor } from "../../http/guards";
import { notify } from "../notifications/notifications.service";
import { markNudged } from "./written-awaiting.service";

/** The least time between two nudges of one director about one resolution. */
export const nudgeIntervalMs = 24 * 60 * 60 * 1000;

/** Who nudges: the user, and their session's standing for a company that requires a second factor. */
export interface Nudger {
  userId: number;
  passedSecondFactor: boolean;
  accountHasSecondFactor: boolean;
}

const mayNudgeRoles: readonly CompanyRole[] = ["founder", "admin"];

/**
 * `POST /api/resolutions/:id/nudge`: tells `userId` (bell and e-mail, under their Resolution Voting switch) that the
 * caller asks them to sign, and records it. 404 unless the caller is a member of the resolution's company; 403 unless
 * they proposed it or are a founder or admin; 409 unless it is a pending written resolution not yet lapsed, `userId`
 * is an eligible director other than the caller who has not signed it, and nobody nudged them about it in the last day. The resolution is
 * share-locked, so a signature or decision landing at the same time is either seen here or waits for the nudge.
 */
export async function nudgeSigner(deps: ServiceDeps<"db" | "clock">, caller: Nudger, id: number, userId: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        companyId: resolutions.companyId,
        title: resolutions.title,
        procedure: resolutions.procedure,
        status: resolutions.status,
        lapsesAt: resolutions.deadline,
        createdBy: resolutions.createdBy,
        callerRole: sql<CompanyRole | null>`(select m.role from memberships m where m.company_id = resolutions.company_id and m.user_id = ${caller.userId})`,
        requiresSecondFactor: sql<boolean>`(select c.require_second_factor from companies c where c.id = resolutions.company_id)`,
        eligible: sql<boolean>`exists (select 1 from resolution_voters v where v.resolution_id = resolutions.id and v.user_id = ${userId})`,
        signed: sql<boolean>`exists (select 1 from written_signatures s where s.resolution_id = resolutions.id and s.user_id = ${userId})`,
      })
      .from(resolutions)
      .where(eq(resolutions.id, id))
      .for("share", { of: resolutions });
    // (Subqueries name their tables in SQL: in a one-table select drizzle leaves columns unqualified, which they would misread.)
    // Another company's resolution is not found, as an id that names nothing.
    if (!row?.callerRole) throw notFound();
    assertSessionPassedSecondFactor(row.requiresSecondFactor === true, caller);
    if (row.createdBy !== caller.userId && !mayNudgeRoles.includes(row.callerRole)) {
      throw forbidden("Only the proposer, founders and admins can nudge a director");
    }
    if (row.procedure !== "written") throw conflict("Only a written resolution's signers can be nudged");
    const now = deps.clock.now();
    if (row.status !== "pending") throw conflict("This resolution has already been decided");
    if (row.lapsesAt.getTime() <= now.getTime()) throw conflict("This resolution has lapsed");
    if (!row.eligible) throw conflict("Only an eligible director can be nudged");
    if (userId === caller.userId) throw conflict("You cannot nudge yourself: sign it instead");
    if (row.signed) throw conflict("This director has already signed");
    if (!(await markNudged(tx, id, userId, now, nudgeIntervalMs))) throw conflict("Already nudged today");

    const [nudger] = await tx
      .select({ firstName: users.firstName, lastName: users.lastName, username: users.username })
      .from(users)
      .where(eq(users.id, caller.userId));
    const by = nudger ? displayName(nudger) : "A director";
    await notify(tx, {
      kind: "writtenSignatureNudge",
      companyId: row.companyId,
      recipients: [userId],
      title: `Please sign: ${row.title}`,
      body: `${by} asks you to sign the written resolution "${row.title}". It lapses ${formatUtc(row.lapsesAt)}.`,
      link: `/resolutions/${id}`,
      at: now,
    });
    await recordAudit(tx, deps.clock, {
      actorId: caller.userId,
      companyId: row.companyId,
      action: "resolution.signer_nudged",
      targetType: "resolution",
      targetId: id,
      details: { userId },
    });
  });
}
