import { and, asc, eq, gt, inArray, isNull, lte, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { integer, pgView, text } from "drizzle-orm/pg-core";
import { companyRoles } from "../../../../shared/roles";
import type { ResolutionProcedure } from "../../../../shared/written-resolutions";
import type { Queryable } from "../../db/client";
import { memberships, resolutions, users, votes, writtenSignatures } from "../../db/schema";

/** A resolution as the surrounding SQL names it: by its columns in the query, by placeholders, or by values. */
export interface ResolutionRef {
  id: SQLWrapper | number;
  companyId: SQLWrapper | number;
}

const electorateColumns = {
  resolutionId: integer("resolution_id").notNull(),
  companyId: integer("company_id").notNull(),
  userId: integer("user_id").notNull(),
  role: text("role", { enum: companyRoles }).notNull(),
};

/**
 * Who may vote on a resolution, one row per resolution and voter: a founder, admin or member of its company (never an
 * observer) who has not declared a conflict of interest on it. The database defines it (migration 0013), so every
 * query here, the vote taken in one call and the "vote closing soon" reminder read the same rule.
 */
export const resolutionVoters = pgView("resolution_voters", electorateColumns).existing();
/** Those who hold a vote on a resolution, a conflict declared or not: whose votes a tally counts. */
export const resolutionVoteHolders = pgView("resolution_vote_holders", electorateColumns).existing();

/*
 * Each part is a fragment of its own, embedded in the next: a single-table select writes the columns at the top of
 * a selected fragment without their table's name, which inside a subquery would name the subquery's own columns.
 */
const ofItsCompany = (resolution: ResolutionRef) => sql`${memberships.companyId} = ${resolution.companyId}`;
const inElectorate = (electorate: typeof resolutionVoters | typeof resolutionVoteHolders, resolution: ResolutionRef) =>
  sql`exists (select 1 from ${electorate} where ${electorate.resolutionId} = ${resolution.id} and ${electorate.userId} = ${memberships.userId})`;

/**
 * Whether the row of `memberships` in scope is the membership of someone who may vote on the resolution (see
 * `resolutionVoters`). Every live tally, the count of eligible voters, a vote's own check, the certificate and the
 * notice of a new resolution use this rule.
 *
 * `ofTheirVote`: the membership is joined to its user's vote on the resolution (a tally), which counts the votes of
 * those who hold a vote (`resolutionVoteHolders`): a conflict cannot apply there, so a tally does not pay for that check.
 */
export function mayVote(resolution: ResolutionRef, { ofTheirVote = false } = {}): SQL<boolean> {
  const electorate = ofTheirVote ? resolutionVoteHolders : resolutionVoters;
  // The company is named as well, so the membership is looked up by it (and a member of several companies counts once).
  return sql<boolean>`(${ofItsCompany(resolution)} and ${inElectorate(electorate, resolution)})`;
}

/** Those who would vote on the resolution but for the conflict of interest they declared on it: the certificate's recused. */
export function recusedFrom(resolution: ResolutionRef): SQL<boolean> {
  return sql<boolean>`(${ofItsCompany(resolution)} and ${inElectorate(resolutionVoteHolders, resolution)} and not ${inElectorate(resolutionVoters, resolution)})`;
}

/**
 * The members of a resolution's company (only `userIds`, when given) in id order, each with their name, role, whether
 * they may vote on it and whether they are recused: what a decision's certificate and a show of hands are checked by.
 */
export function membersAsVoters(db: Queryable, resolution: { id: number; companyId: number }, userIds?: readonly number[]) {
  return db
    .select({
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      role: memberships.role,
      mayVote: mayVote(resolution),
      recused: recusedFrom(resolution),
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.companyId, resolution.companyId), userIds ? inArray(memberships.userId, [...userIds]) : undefined))
    .orderBy(asc(users.id));
}

/**
 * Everyone who may vote (`resolutionVoters`) on a pending resolution decided by `procedure`, whose deadline falls
 * after `after` and at `until` at the latest, and has no row in `answers` (their vote, or their signature): by
 * deadline, then resolution, then user. The resolutions read are share-locked: a decision, or an answer, that takes
 * the row lock waits for the caller's transaction, and one decided before it is no longer pending here.
 */
export function awaitedAnswers(
  db: Queryable,
  {
    procedure,
    answers,
    after,
    until,
  }: { procedure: ResolutionProcedure; answers: typeof votes | typeof writtenSignatures; after: Date; until: Date },
) {
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
    .leftJoin(answers, and(eq(answers.resolutionId, resolutions.id), eq(answers.userId, resolutionVoters.userId)))
    .where(
      and(
        eq(resolutions.procedure, procedure),
        eq(resolutions.status, "pending"),
        isNull(resolutions.decidedAt),
        gt(resolutions.deadline, after),
        lte(resolutions.deadline, until),
        isNull(answers.id),
      ),
    )
    .orderBy(asc(resolutions.deadline), asc(resolutions.id), asc(resolutionVoters.userId))
    .for("share", { of: resolutions });
}
