import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { AuditAction } from "../../../shared/audit";
import type { Clock } from "../clock";
import type { Queryable } from "./client";

export interface AuditEvent {
  /** Who made the change; null for the app itself (a decision at a deadline). */
  actorId: number | null;
  /** The company the change belongs to; none for platform-wide changes (service keys, a user's own sign-in factors). */
  companyId?: number | null;
  action: AuditAction;
  targetType: string;
  targetId?: string | number;
  details?: Record<string, unknown>;
}

/** The chain an event joins: its company's, or (0) the platform's. */
export const auditChainKey = (companyId: number | null | undefined): number => companyId ?? 0;

/** An event's stored values as SQL parameters; each may be a `sql.placeholder` for a statement built once. */
export interface AuditEventValues {
  at: string | Date | Placeholder;
  actorId: number | null | Placeholder;
  companyId: number | null | Placeholder;
  action: AuditAction | Placeholder;
  targetType: string | Placeholder;
  targetId: string | null | Placeholder;
  /** The details as JSON text. */
  details: string | null | Placeholder;
  chainKey: number | Placeholder;
}

/**
 * The statement that appends an event to its chain, dated by the app's clock: the database's `append_audit_event`,
 * the one place the chain is extended (a vote taken in one call extends it there too). It takes the chain's head row
 * with INSERT … ON CONFLICT DO UPDATE, which locks it until the transaction ends and reads its latest committed
 * version, so concurrent writers of one company queue there and each links to the one before: the chain cannot
 * fork, and a transaction that rolls back (or a process killed mid-write) leaves neither the event nor the head
 * moved. The hash is computed by the database from the very values it stores (audit_event_hash).
 * `before` adds common table expressions that run in the same statement (a vote and its event, one round trip).
 */
export function appendAuditSql(clock: Clock, event: AuditEvent, before?: SQL): SQL {
  return appendAuditValuesSql(
    {
      at: clock.now().toISOString(),
      actorId: event.actorId,
      companyId: event.companyId ?? null,
      action: event.action,
      targetType: event.targetType,
      targetId: event.targetId == null ? null : String(event.targetId),
      details: event.details == null ? null : JSON.stringify(event.details),
      chainKey: auditChainKey(event.companyId),
    },
    before,
  );
}

/** appendAuditSql over the event's values as parameters (or placeholders). */
export function appendAuditValuesSql(event: AuditEventValues, before?: SQL): SQL {
  const append = sql`select append_audit_event(${event.at}::timestamptz, ${event.actorId}::integer, ${event.companyId}::integer, ${event.action}::text, ${event.targetType}::text, ${event.targetId}::text, ${event.details}::jsonb, ${event.chainKey}::integer)`;
  return before ? sql`with ${before} ${append}` : append;
}

/** One event of the audit trail, appended to its chain in the same transaction as the change it records. */
export async function recordAudit(db: Queryable, clock: Clock, event: AuditEvent): Promise<void> {
  await db.execute(appendAuditSql(clock, event));
}
