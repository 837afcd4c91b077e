import { eq } from "drizzle-orm";
import { defaultWrittenRule, type SignDecision, type WrittenCertificate } from "../../../shared/written-resolutions";
import { textSha256 } from "../crypto/text-hash";
import type { Database } from "../db/client";
import { resolutionRecusals, resolutions, writtenSignatures } from "../db/schema";

/**
 * Written resolutions, signatures and outcomes written straight to the database: for the tests of what surrounds the
 * signing (reminders, nudges, the minute book), which stand in for a signature or a decision this way.
 */

/** A pending written resolution of the company, proposed by `createdBy`, lapsing at `lapsesAt`. */
export async function insertWrittenResolution(
  db: Database,
  fields: { companyId: number; createdBy: number; lapsesAt: Date; title?: string; text?: string; createdAt?: Date },
): Promise<number> {
  const text = fields.text ?? "The company adopts the FY27 budget as circulated.";
  const [row] = await db
    .insert(resolutions)
    .values({
      companyId: fields.companyId,
      title: fields.title ?? "Adopt the FY27 budget",
      description: text,
      type: "Ordinary",
      status: "pending",
      deadline: fields.lapsesAt,
      procedure: "written",
      textSha256: textSha256(text),
      writtenRule: defaultWrittenRule,
      createdBy: fields.createdBy,
      ...(fields.createdAt ? { createdAt: fields.createdAt } : {}),
    })
    .returning({ id: resolutions.id });
  return row!.id;
}

/** A director's signature, as the signing would store it (the evidence is not what these tests read). */
export async function insertSignature(
  db: Database,
  resolutionId: number,
  userId: number,
  signedAt: Date,
  decision: SignDecision = "agree",
) {
  const nonce = `nonce-${resolutionId}-${userId}-${signedAt.getTime()}`;
  await db.insert(writtenSignatures).values({
    resolutionId,
    userId,
    decision,
    method: "password",
    signedAt,
    statement: JSON.stringify({ resolutionId, userId, decision, nonce }),
    nonce,
  });
}

/** A recusal declared on the resolution, straight in its table. */
export async function insertRecusal(db: Database, resolutionId: number, userId: number, at: Date) {
  await db.insert(resolutionRecusals).values({ resolutionId, userId, reason: "I am the supplier", createdAt: at });
}

/**
 * Decides a written resolution as the decision would: its status, the time decided and a frozen certificate whose
 * outcome and effective time are these.
 */
export async function decideWrittenResolution(
  db: Database,
  resolutionId: number,
  outcome: WrittenCertificate["outcome"],
  effectiveAt: Date,
  decidedAt: Date = effectiveAt,
) {
  const [row] = await db.select().from(resolutions).where(eq(resolutions.id, resolutionId));
  if (!row) throw new Error(`no resolution ${resolutionId}`);
  const certificate: WrittenCertificate = {
    procedure: "written",
    resolutionId,
    companyId: row.companyId,
    title: row.title,
    text: row.description,
    textSha256: row.textSha256 ?? textSha256(row.description),
    rule: row.writtenRule ?? defaultWrittenRule,
    proposedAt: row.createdAt.toISOString(),
    lapsesAt: row.deadline.toISOString(),
    eligible: [],
    recused: [],
    signatures: [],
    outcome,
    effectiveAt: outcome === "rejected" ? null : effectiveAt.toISOString(),
    decidedAt: decidedAt.toISOString(),
    explanation: `${outcome} for the test`,
    auditHeadHash: "0".repeat(64),
  };
  await db.update(resolutions).set({ status: outcome, decidedAt, writtenCertificate: certificate }).where(eq(resolutions.id, resolutionId));
}
