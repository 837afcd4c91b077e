// A conflict of interest on an open resolution: declaring one withdraws the caller's vote and takes them out of the
// count of those who may vote; withdrawing the declaration lets them vote again.
import { and, eq } from "drizzle-orm";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import { resolutionRecusals, votes, writtenSignatures } from "../../db/schema";
import { openResolutionWrite, type Writer } from "./open-resolution-write.service";
import { decideIfReady } from "./resolution-decision";

type Deps = ServiceDeps<"db" | "clock">;

/** `POST /api/resolutions/:id/conflict`: the caller's vote (or signature) is withdrawn and they leave the denominator. */
export async function declareConflict(deps: Deps, writer: Writer, id: number, reason: string): Promise<void> {
  const { userId } = writer;
  await openResolutionWrite(deps, id, writer, async (tx, row) => {
    const withdrawn = await tx
      .delete(votes)
      .where(and(eq(votes.resolutionId, id), eq(votes.userId, userId)))
      .returning({ vote: votes.vote });
    // On a written resolution the declarer's signature goes, as a vote does.
    const unsigned = await tx
      .delete(writtenSignatures)
      .where(and(eq(writtenSignatures.resolutionId, id), eq(writtenSignatures.userId, userId)))
      .returning({ id: writtenSignatures.id });
    await tx
      .insert(resolutionRecusals)
      .values({ resolutionId: id, userId, reason, createdAt: deps.clock.now() })
      .onConflictDoUpdate({ target: [resolutionRecusals.resolutionId, resolutionRecusals.userId], set: { reason } });
    await recordAudit(tx, deps.clock, {
      actorId: userId,
      companyId: row.companyId,
      action: "resolution.conflict_declared",
      targetType: "resolution",
      targetId: id,
      details: { withdrawnVote: withdrawn[0]?.vote ?? null, ...(unsigned.length > 0 ? { withdrawnSignature: true } : {}) },
    });
    // Leaving the denominator may leave everyone else having voted (or signed).
    await decideIfReady(tx, deps.clock, row, userId);
  });
}

/** `DELETE /api/resolutions/:id/conflict`: withdraws the caller's declaration while the resolution is open. */
export async function withdrawConflict(deps: Deps, writer: Writer, id: number): Promise<void> {
  const { userId } = writer;
  await openResolutionWrite(deps, id, writer, async (tx, row) => {
    const removed = await tx
      .delete(resolutionRecusals)
      .where(and(eq(resolutionRecusals.resolutionId, id), eq(resolutionRecusals.userId, userId)))
      .returning({ userId: resolutionRecusals.userId });
    // Withdrawing a declaration one never made changes nothing (a repeated DELETE is harmless).
    if (removed.length === 0) return;
    await recordAudit(tx, deps.clock, {
      actorId: userId,
      companyId: row.companyId,
      action: "resolution.conflict_withdrawn",
      targetType: "resolution",
      targetId: id,
    });
  });
}
