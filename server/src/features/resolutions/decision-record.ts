// What a decision leaves behind, whether by votes, by a show of hands or by signatures: its event in the company's
// audit chain, and the notice to every member of the company.
import type { Clock } from "../../clock";
import { recordAudit } from "../../db/audit";
import type { Transaction } from "../../db/client";
import { notify } from "../notifications/notifications.service";

interface DecidedRow {
  id: number;
  companyId: number;
  title: string;
}

/** Appends the decision's event to the company's audit chain, with its figures in `details`. */
export function auditDecision(tx: Transaction, clock: Clock, actorId: number | null, row: DecidedRow, details: Record<string, unknown>) {
  return recordAudit(tx, clock, {
    actorId,
    companyId: row.companyId,
    action: "resolution.decided",
    targetType: "resolution",
    targetId: row.id,
    details,
  });
}

/** Tells every member of the company the outcome, with its explanation and a link to the resolution. */
export function notifyDecided(
  tx: Transaction,
  row: DecidedRow,
  decided: { outcome: string; explanation: string; at: Date },
  members: readonly { userId: number }[],
) {
  return notify(tx, {
    kind: "resolutionDecided",
    companyId: row.companyId,
    recipients: members.map((member) => member.userId),
    title: `Resolution ${decided.outcome}: ${row.title}`,
    body: decided.explanation,
    link: `/resolutions/${row.id}`,
    at: decided.at,
  });
}
