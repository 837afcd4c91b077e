import { and, asc, eq, inArray, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { votingRoles } from "../../../../shared/permissions";
import type { Queryable } from "../../db/client";
import { memberships, resolutionRecusals, users } from "../../db/schema";

/** A resolution as the surrounding SQL names it: by its columns in the query, by placeholders, or by values. */
export interface ResolutionRef {
  id: SQLWrapper | number;
  companyId: SQLWrapper | number;
}

/** The roles that vote, written as literals so the planner knows which memberships they select. */
const votingRolesSql = sql.raw(votingRoles.map((role) => `'${role}'`).join(", "));

/*
 * Each part is a fragment of its own, embedded in the next: a single-table select writes the columns at the top of
 * a selected fragment without their table's name, which inside a subquery would name the subquery's own columns.
 */
const holdsAVote = (resolution: ResolutionRef) =>
  sql`${memberships.companyId} = ${resolution.companyId} and ${memberships.role} in (${votingRolesSql})`;
const declaredAConflict = (resolution: ResolutionRef) =>
  sql`exists (select 1 from ${resolutionRecusals} where ${resolutionRecusals.resolutionId} = ${resolution.id} and ${resolutionRecusals.userId} = ${memberships.userId})`;

/**
 * Who may vote on a resolution, as a condition on the row of `memberships` in scope: a founder, admin or member of
 * the resolution's company (never an observer) who has not declared a conflict of interest on it. Every live tally,
 * the count of eligible voters, a vote's own check, the certificate and the notice of a new resolution use this rule.
 *
 * `ofTheirVote`: the membership is joined to its user's vote on the resolution (a tally). A conflict cannot apply
 * there: declaring one withdraws the declarer's vote and their vote is refused while it stands, both under the
 * resolution's row lock. So a tally leaves that check out; per vote it would cost the list an anti-join on every vote.
 */
export function mayVote(resolution: ResolutionRef, { ofTheirVote = false } = {}): SQL<boolean> {
  return ofTheirVote
    ? sql<boolean>`(${holdsAVote(resolution)})`
    : sql<boolean>`(${holdsAVote(resolution)} and not ${declaredAConflict(resolution)})`;
}

/** Those who would vote on the resolution but for the conflict of interest they declared on it: the certificate's recused. */
export function recusedFrom(resolution: ResolutionRef): SQL<boolean> {
  return sql<boolean>`(${holdsAVote(resolution)} and ${declaredAConflict(resolution)})`;
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
