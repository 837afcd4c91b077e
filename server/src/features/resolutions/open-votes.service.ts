import { and, asc, eq, gt, inArray, isNull, lte } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { resolutions, votes } from "../../db/schema";
import { resolutionVoters } from "./eligible-voters";

/**
 * Everyone who may vote on a pending resolution put to an online vote (a written one is signed, not voted on) whose
 * deadline falls after `after` and at `until` at the latest, and has not voted on it: by deadline, then resolution,
 * then user. Who may vote is `resolutionVoters`, as for a vote itself. The resolutions read are share-locked: a decision (which takes the row lock) waits for the caller's
 * transaction, and one decided before it is no longer pending here.
 */
export function votersYetToVote(db: Queryable, { after, until }: { after: Date; until: Date }) {
  return db
    .select({
      id: resolutions.id,
      companyId: resolutions.companyId,
      title: resolutions.title,
      deadline: resolutions.deadline,
      userId: resolutionVoters.userId,
    })
    .from(resolutions)
    .innerJoin(resolutionVoters, eq(resolutionVoters.resolutionId, resolutions.id))
    .leftJoin(votes, and(eq(votes.resolutionId, resolutions.id), eq(votes.userId, resolutionVoters.userId)))
    .where(
      and(
        eq(resolutions.procedure, "vote"),
        eq(resolutions.status, "pending"),
        isNull(resolutions.decidedAt),
        gt(resolutions.deadline, after),
        lte(resolutions.deadline, until),
        isNull(votes.id),
      ),
    )
    .orderBy(asc(resolutions.deadline), asc(resolutions.id), asc(resolutionVoters.userId))
    .for("share", { of: resolutions });
}

/** The companies' resolutions still open to votes at `now`, the soonest deadline first. */
export function openResolutionsOf(db: Queryable, companyIds: number[], now: Date) {
  return db
    .select({ companyId: resolutions.companyId, id: resolutions.id, title: resolutions.title, deadline: resolutions.deadline })
    .from(resolutions)
    .where(and(inArray(resolutions.companyId, companyIds), eq(resolutions.status, "pending"), gt(resolutions.deadline, now)))
    .orderBy(asc(resolutions.deadline), asc(resolutions.id));
}
