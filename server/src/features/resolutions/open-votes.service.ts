import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { resolutions, votes } from "../../db/schema";
import { awaitedAnswers } from "./eligible-voters";

/**
 * Everyone who may vote on a pending resolution put to an online vote (a written one is signed, not voted on) whose
 * deadline falls after `after` and at `until` at the latest, and has not voted on it: see `awaitedAnswers`.
 */
export function votersYetToVote(db: Queryable, { after, until }: { after: Date; until: Date }) {
  return awaitedAnswers(db, { procedure: "vote", answers: votes, after, until });
}

/** The companies' resolutions still open to votes at `now`, the soonest deadline first. */
export function openResolutionsOf(db: Queryable, companyIds: number[], now: Date) {
  return db
    .select({ companyId: resolutions.companyId, id: resolutions.id, title: resolutions.title, deadline: resolutions.deadline })
    .from(resolutions)
    .where(and(inArray(resolutions.companyId, companyIds), eq(resolutions.status, "pending"), gt(resolutions.deadline, now)))
    .orderBy(asc(resolutions.deadline), asc(resolutions.id));
}
