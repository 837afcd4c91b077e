// The outcome of a written resolution, decided under its row lock from the signatures standing now, by the rule as it
// stood when it was proposed: passed, rejected, referred to a meeting, or lapsed. The certificate is frozen with it.
import { asc, eq } from "drizzle-orm";
import { genesisHash } from "../../../../shared/audit-chain";
import { displayName } from "../../../../shared/people";
import {
  decideWritten,
  defaultWrittenRule,
  decidingSignatureIndex,
  writtenOutcomeHeading,
  type WrittenCertificate,
  type WrittenCounts,
  type WrittenRule,
  type WrittenSignature,
} from "../../../../shared/written-resolutions";
import { formatUtc, type Clock } from "../../clock";
import { auditChainKey } from "../../db/audit";
import type { Queryable, Transaction } from "../../db/client";
import { auditChainHeads, resolutions, writtenSignatures } from "../../db/schema";
import { auditDecision, notifyDecided } from "./decision-record";
import { membersAsVoters } from "./eligible-voters";

type WrittenRow = typeof resolutions.$inferSelect;
type SignatureRow = typeof writtenSignatures.$inferSelect;

/** The rule a written resolution is decided by: the one stored with it (the default only for a row that lacks it). */
export const ruleOf = (row: Pick<WrittenRow, "writtenRule">): WrittenRule => row.writtenRule ?? defaultWrittenRule;

/** Whether a pending written resolution has reached its lapse: the one thing a read can tell without its signatures. */
export const writtenLapsed = (row: { status: WrittenRow["status"]; deadline: Date }, now: Date) =>
  row.status === "pending" && row.deadline.getTime() <= now.getTime();

/** A signature as the certificate keeps it: its evidence, binary fields base64url. */
function certifiedSignature(signature: SignatureRow, name: string): WrittenSignature {
  return {
    userId: signature.userId,
    name,
    decision: signature.decision,
    method: signature.method,
    signedAt: signature.signedAt.toISOString(),
    statement: signature.statement,
    ...(signature.method === "passkey"
      ? {
          credentialId: signature.credentialId ?? "",
          publicKey: signature.publicKey ?? "",
          authenticatorData: signature.authenticatorData ?? "",
          clientDataJSON: signature.clientDataJson ?? "",
          signature: signature.signature ?? "",
        }
      : {}),
  };
}

async function auditHeadOf(db: Queryable, companyId: number): Promise<string> {
  const [head] = await db
    .select({ hash: auditChainHeads.hash })
    .from(auditChainHeads)
    .where(eq(auditChainHeads.chainKey, auditChainKey(companyId)));
  return head?.hash ?? genesisHash;
}

/**
 * Decides a locked, pending written resolution when its rule is met, can no longer be met, or it has lapsed: stores
 * the outcome, its explanation and the frozen certificate (the company's audit head taken after the decision's own
 * event), and tells every member of the company. Answers the row as it now is.
 */
export async function decideWrittenIfReady(tx: Transaction, clock: Clock, row: WrittenRow, actorId: number | null): Promise<WrittenRow> {
  if (row.status !== "pending" || row.procedure !== "written") return row;
  const now = clock.now();
  const rule = ruleOf(row);
  const members = await membersAsVoters(tx, { id: row.id, companyId: row.companyId });
  const signatures = await tx
    .select()
    .from(writtenSignatures)
    .where(eq(writtenSignatures.resolutionId, row.id))
    .orderBy(asc(writtenSignatures.signedAt), asc(writtenSignatures.id));
  const eligible = members.filter((member) => member.mayVote);
  const recused = members.filter((member) => member.recused);
  const names = new Map(eligible.map((member) => [member.userId, displayName(member)]));
  // Only the signatures of those eligible now count (one who left the company, or recused, no longer does).
  const counted = signatures.filter((signature) => names.has(signature.userId));
  const counts: WrittenCounts = { agree: 0, disagree: 0, meeting: 0 };
  for (const signature of counted) counts[signature.decision] += 1;

  const outcome = decideWritten(rule, eligible.length, counts, row.deadline.getTime() <= now.getTime());
  if (!outcome.decided) return row;
  const decidingIndex = decidingSignatureIndex(
    rule,
    eligible.length,
    outcome.outcome,
    counted.map((signature) => signature.decision),
  );
  const deciding = decidingIndex === null ? undefined : counted[decidingIndex];
  const effectiveAt = deciding?.signedAt ?? null;
  const effective = deciding ? `; effective ${formatUtc(deciding.signedAt)} at the signature of ${names.get(deciding.userId) ?? ""}` : "";
  const explanation = `${writtenOutcomeHeading(outcome)}: ${outcome.reason}${effective}`;

  await auditDecision(tx, clock, actorId, row, {
    procedure: "written",
    outcome: outcome.outcome,
    lapsed: outcome.lapsed,
    ...counts,
    eligible: eligible.length,
    recused: recused.length,
    effectiveAt: effectiveAt?.toISOString() ?? null,
  });
  const certificate: WrittenCertificate = {
    procedure: "written",
    resolutionId: row.id,
    companyId: row.companyId,
    title: row.title,
    text: row.description,
    textSha256: row.textSha256 ?? "",
    rule,
    proposedAt: row.createdAt.toISOString(),
    lapsesAt: row.deadline.toISOString(),
    eligible: eligible.map((member) => ({ userId: member.userId, name: displayName(member) })),
    recused: recused.map((member) => ({ userId: member.userId, name: displayName(member) })),
    signatures: counted.map((signature) => certifiedSignature(signature, names.get(signature.userId) ?? "")),
    outcome: outcome.outcome,
    effectiveAt: effectiveAt?.toISOString() ?? null,
    decidedAt: now.toISOString(),
    explanation,
    auditHeadHash: await auditHeadOf(tx, row.companyId),
  };
  const [updated] = await tx
    .update(resolutions)
    .set({ status: outcome.outcome, decidedAt: now, explanation, writtenCertificate: certificate })
    .where(eq(resolutions.id, row.id))
    .returning();
  await notifyDecided(tx, row, { outcome: outcome.outcome, explanation, at: now }, members);
  return updated ?? row;
}
