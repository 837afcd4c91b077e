import type { Clock } from "../clock";
import type { Queryable } from "./client";
import { auditEvents } from "./schema";

export interface AuditEvent {
  /** Who made the change; null for the app itself (a decision at a deadline). */
  actorId: number | null;
  /** The company the change belongs to; none for platform-wide changes. */
  companyId?: number | null;
  action: string;
  targetType: string;
  targetId?: string | number;
  details?: Record<string, unknown>;
}

/** The audit row of an event, dated by the app's clock; for a write that inserts it in a statement of its own making. */
export function auditRow(clock: Clock, event: AuditEvent): typeof auditEvents.$inferInsert {
  return {
    actorId: event.actorId,
    companyId: event.companyId ?? null,
    action: event.action,
    targetType: event.targetType,
    targetId: event.targetId == null ? null : String(event.targetId),
    details: event.details ?? null,
    createdAt: clock.now(),
  };
}

/** One row of the audit trail, written in the same transaction as the change it records, dated by the app's clock. */
export async function recordAudit(db: Queryable, clock: Clock, event: AuditEvent): Promise<void> {
  await db.insert(auditEvents).values(auditRow(clock, event));
}
