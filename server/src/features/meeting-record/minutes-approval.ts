// Approving minutes freezes them: the text, its SHA-256, the approving certificate and a PDF in the library, all in
// one transaction. By the chair's signature that happens at once; by a resolution, once the board has approved it
// (settled when the minutes are next read, by the sweep, or after a show of hands).
import { Readable } from "node:stream";
import { and, eq, ne, type SQL } from "drizzle-orm";
import { minutesCategory } from "../../../../shared/meeting-model";
import type { Certificate } from "../../../../shared/resolutions";
import type { ServiceDeps } from "../../app-deps";
import { formatUtcDate, startSweep } from "../../clock";
import { recordAudit } from "../../db/audit";
import { textSha256 } from "../../crypto/text-hash";
import { companies, meetingMinutes, meetings, resolutions } from "../../db/schema";
import { abandonReceivedFile, insertDocument, receiveFile } from "../documents/documents.service";
import { HttpError } from "../../http/errors";
import { renderMinutesPdf } from "./pdf-pool";

export type ApprovalDeps = ServiceDeps<"db" | "clock" | "appSecret" | "outbound">;

export const minutesPdfFailedMessage = "The minutes' PDF could not be made. Try again in a moment.";
const minutesPdfRetryAfterSeconds = 10;

/** What the minutes were when the approval was decided on: the freeze happens only if they are still so. */
export interface ApprovalBasis {
  meetingId: number;
  companyId: number;
  company: string;
  meetingTitle: string;
  meetingStart: Date;
  text: string;
  /** The approving resolution, or null for the chair's signature. */
  resolutionId: number | null;
}

export interface Approval {
  via: "chair" | "resolution";
  at: Date;
  /** The chair who signed; null for a resolution. */
  approver: { id: number; name: string } | null;
  /** The line the PDF carries under the text. */
  line: string;
  certificate: Certificate | null;
}

/**
 * Freezes circulated minutes: their PDF's bytes are stored first (outside the transaction, on the file sweep until
 * claimed), then in one transaction under the minutes' row lock, if they are still as `basis` says: the library
 * document, the frozen text's hash, the approval and its audit. Answers false (and drops the bytes) when the minutes
 * changed meanwhile.
 */
export async function freezeMinutes(deps: ApprovalDeps, basis: ApprovalBasis, approval: Approval): Promise<boolean> {
  const sha256 = textSha256(basis.text);
  const pdf = await renderMinutesPdf({
    company: basis.company,
    meetingTitle: basis.meetingTitle,
    text: basis.text,
    approval: approval.line,
    sha256,
  }).catch(() => {
    // Its worker passed a cap, stopped, or failed: nothing is written yet, and the approval may be tried again.
    throw new HttpError(503, minutesPdfFailedMessage, { "Retry-After": String(minutesPdfRetryAfterSeconds) });
  });
  const received = await receiveFile(deps, Readable.from([Buffer.from(pdf)]), "pdf", "application/pdf");
  try {
    const frozen = await deps.db.transaction(async (tx) => {
      const [row] = await tx.select().from(meetingMinutes).where(eq(meetingMinutes.meetingId, basis.meetingId)).for("update");
      if (!row || row.status !== "circulated" || row.text !== basis.text || row.resolutionId !== basis.resolutionId) return false;
      const file = received.result("pdf");
      const documentId = await insertDocument(
        tx,
        deps.clock,
        { companyId: basis.companyId, actor: approval.approver },
        {
          name: `Minutes of ${basis.meetingTitle} (${formatUtcDate(basis.meetingStart)}).pdf`,
          category: minutesCategory,
          description: `Approved minutes. SHA-256 of the text: ${sha256}`,
          fileType: file.fileType,
          fileSize: file.size,
          pages: file.pages,
        },
        { ...received.place, sha256: file.sha256 },
      );
      await tx
        .update(meetingMinutes)
        .set({
          status: "approved",
          approvedVia: approval.via,
          approvedAt: approval.at,
          approvedBy: approval.approver?.id ?? null,
          sha256,
          approvalCertificate: approval.certificate,
          documentId,
        })
        .where(eq(meetingMinutes.meetingId, basis.meetingId));
      await recordAudit(tx, deps.clock, {
        actorId: approval.approver?.id ?? null,
        companyId: basis.companyId,
        action: "minutes.approved",
        targetType: "meeting",
        targetId: basis.meetingId,
        details: { via: approval.via, sha256, documentId, resolutionId: basis.resolutionId },
      });
      return true;
    });
    if (!frozen) await abandonReceivedFile(deps, received);
    return frozen;
  } catch (error) {
    await abandonReceivedFile(deps, received);
    throw error;
  }
}

/**
 * Settles minutes before the board whose resolution is decided: approved → the minutes are frozen with its decision
 * time and certificate; rejected → the resolution is let go, so the minutes can be edited and proposed again.
 * `scope` narrows it to one meeting or one resolution; with none, every company's. With nothing to settle this is one
 * query. Answers how many minutes it settled.
 */
export async function settleMinutesApproval(
  deps: ApprovalDeps,
  scope: { meetingId: number } | { resolutionId: number } | "all",
): Promise<number> {
  const narrowed: SQL | undefined =
    scope === "all"
      ? undefined
      : "meetingId" in scope
        ? eq(meetingMinutes.meetingId, scope.meetingId)
        : eq(meetingMinutes.resolutionId, scope.resolutionId);
  const decided = await deps.db
    .select({
      meetingId: meetingMinutes.meetingId,
      text: meetingMinutes.text,
      resolutionId: resolutions.id,
      status: resolutions.status,
      decidedAt: resolutions.decidedAt,
      certificate: resolutions.certificate,
      explanation: resolutions.explanation,
      companyId: meetings.companyId,
      company: companies.name,
      meetingTitle: meetings.title,
      meetingStart: meetings.startsAt,
    })
    .from(meetingMinutes)
    .innerJoin(resolutions, eq(resolutions.id, meetingMinutes.resolutionId))
    .innerJoin(meetings, eq(meetings.documentId, meetingMinutes.meetingId))
    .innerJoin(companies, eq(companies.id, meetings.companyId))
    .where(and(eq(meetingMinutes.status, "circulated"), ne(resolutions.status, "pending"), narrowed));
  let settled = 0;
  for (const row of decided) {
    if (row.status === "rejected") {
      const released = await deps.db
        .update(meetingMinutes)
        .set({ resolutionId: null })
        .where(
          and(
            eq(meetingMinutes.meetingId, row.meetingId),
            eq(meetingMinutes.resolutionId, row.resolutionId),
            eq(meetingMinutes.status, "circulated"),
          ),
        )
        .returning({ meetingId: meetingMinutes.meetingId });
      settled += released.length;
      continue;
    }
    const at = row.decidedAt ?? deps.clock.now();
    const frozen = await freezeMinutes(
      deps,
      { ...row },
      {
        via: "resolution",
        at,
        approver: null,
        line: `Approved by resolution #${row.resolutionId} on ${formatUtcDate(at)}: ${row.explanation ?? "approved"}`,
        certificate: row.certificate,
      },
    );
    if (frozen) settled += 1;
  }
  return settled;
}

/** Settles decided approvals every `intervalMs`, so minutes are approved even when nobody reads them. */
export function startMinutesSweep(deps: ApprovalDeps & ServiceDeps<"logger">, intervalMs = 60_000): { stop: () => void } {
  return startSweep(deps.logger, intervalMs, () => settleMinutesApproval(deps, "all"), {
    handled: "minutes settled after their resolution was decided",
    failed: "minutes sweep failed",
  });
}
