// Reading a written resolution: its signing state as the caller sees it (who has signed, never how, while it is
// pending), and its frozen certificate once decided.
import { asc, eq, sql, type Placeholder, type SQL } from "drizzle-orm";
import { displayName } from "../../../../shared/people";
import type { CompanyRole } from "../../../../shared/roles";
import type { WrittenCertificate, WrittenState } from "../../../../shared/written-resolutions";
import type { Queryable } from "../../db/client";
import { resolutions, writtenSignatures } from "../../db/schema";
import { membersAsVoters, resolutionVoters } from "./eligible-voters";
import { ruleOf, writtenLapsed } from "./written-decision";

/** Who reads: the caller and their role in the resolution's company. */
export interface Viewer {
  userId: number;
  role: CompanyRole | null;
}

type WrittenRow = Pick<
  typeof resolutions.$inferSelect,
  "id" | "companyId" | "status" | "deadline" | "createdBy" | "writtenRule" | "writtenCertificate"
>;

const mayNudgeAs = (row: WrittenRow, viewer: Viewer | undefined) =>
  viewer !== undefined && (row.createdBy === viewer.userId || viewer.role === "founder" || viewer.role === "admin");

/** A decided one's state, from its certificate alone: nobody may sign, withdraw or nudge any more. */
function stateFromCertificate(certificate: WrittenCertificate, viewer: Viewer | undefined): WrittenState {
  const signedIds = new Set(certificate.signatures.map((signature) => signature.userId));
  const mine = certificate.signatures.find((signature) => signature.userId === viewer?.userId);
  return {
    rule: certificate.rule,
    signed: certificate.signatures.map(({ userId, name, signedAt }) => ({ userId, name, signedAt })),
    awaiting: certificate.eligible.filter((person) => !signedIds.has(person.userId)),
    mine: mine ? { decision: mine.decision, method: mine.method, signedAt: mine.signedAt } : null,
    maySign: false,
    mayWithdraw: false,
    mayNudge: false,
  };
}

/**
 * A written resolution's signing state as `viewer` sees it: two queries while it is pending (the members with their
 * standing, the signatures), none once decided (its certificate says it all).
 */
export async function writtenStateOf(db: Queryable, row: WrittenRow, viewer: Viewer | undefined, now: Date): Promise<WrittenState> {
  const rule = ruleOf(row);
  if (row.writtenCertificate) return stateFromCertificate(row.writtenCertificate, viewer);
  const members = await membersAsVoters(db, row);
  const signatures = await db
    .select({
      userId: writtenSignatures.userId,
      decision: writtenSignatures.decision,
      method: writtenSignatures.method,
      signedAt: writtenSignatures.signedAt,
    })
    .from(writtenSignatures)
    .where(eq(writtenSignatures.resolutionId, row.id))
    .orderBy(asc(writtenSignatures.signedAt), asc(writtenSignatures.id));
  const eligible = members.filter((member) => member.mayVote);
  const names = new Map(eligible.map((member) => [member.userId, displayName(member)]));
  const counted = signatures.filter((signature) => names.has(signature.userId));
  const signedIds = new Set(counted.map((signature) => signature.userId));
  const own = signatures.find((signature) => signature.userId === viewer?.userId);
  const open = row.status === "pending" && !writtenLapsed(row, now);
  return {
    rule,
    signed: counted.map((signature) => ({
      userId: signature.userId,
      name: names.get(signature.userId) ?? "",
      signedAt: signature.signedAt.toISOString(),
    })),
    awaiting: eligible
      .filter((member) => !signedIds.has(member.userId))
      .map((member) => ({ userId: member.userId, name: displayName(member) })),
    mine: own ? { decision: own.decision, method: own.method, signedAt: own.signedAt.toISOString() } : null,
    maySign: open && viewer !== undefined && names.has(viewer.userId) && !own,
    mayWithdraw: open && rule.allowWithdrawal && own !== undefined,
    mayNudge: open && mayNudgeAs(row, viewer),
  };
}

/**
 * Whether the caller may sign the pending written resolution in scope and has not yet: a subquery for the list of
 * pending resolutions (false for a vote).
 */
export function awaitingSignatureOf(userId: number | Placeholder): SQL<boolean> {
  // A fragment of its own: the outer single-table select would otherwise leave the subquery's columns unqualified.
  return sql<boolean>`${sql`(${resolutions.procedure} = 'written' and exists (select 1 from ${resolutionVoters} where ${resolutionVoters.resolutionId} = ${resolutions.id} and ${resolutionVoters.userId} = ${userId}) and not exists (select 1 from ${writtenSignatures} where ${writtenSignatures.resolutionId} = ${resolutions.id} and ${writtenSignatures.userId} = ${userId}))`}`;
}
