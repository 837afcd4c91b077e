import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { AuditAction } from "../../../shared/audit";
import { genesisHash } from "../../../shared/audit-chain";
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
 * The statement that appends an event to its chain, dated by the app's clock. The chain's head row is taken
 * with INSERT … ON CONFLICT DO UPDATE, which locks it until the transaction ends and reads its latest committed
 * version, so concurrent writers of one company queue there and each links to the one before: the chain cannot
 * fork, and a transaction that rolls back (or a process killed mid-write) leaves neither the event nor the
 * head moved. The hash is computed by the database from the very values it stores (audit_event_hash).
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
  const { chainKey } = event;
  const fields = sql`${event.at}::timestamptz, ${event.actorId}::integer, ${event.companyId}::integer, ${event.action}::text, ${event.targetType}::text, ${event.targetId}::text, ${event.details}::jsonb`;
  return sql`with ${before ? sql`${before}, ` : sql``}fields (at, actor_id, company_id, action, target_type, target_id, details) as (select ${fields}),
    head as (
      insert into audit_chain_heads as h (chain_key, seq, prev_hash, hash)
      select ${chainKey}::integer, 1, ${genesisHash}, audit_event_hash(1, f.at, f.actor_id, f.company_id, f.action, f.target_type, f.target_id, f.details, ${genesisHash}) from fields f
      on conflict (chain_key) do update set seq = h.seq + 1, prev_hash = h.hash,
        hash = (select audit_event_hash(h.seq + 1, f.at, f.actor_id, f.company_id, f.action, f.target_type, f.target_id, f.details, h.hash) from fields f)
      returning h.seq, h.prev_hash, h.hash
    )
    insert into audit_events (actor_id, company_id, action, target_type, target_id, details, created_at, chain_key, seq, prev_hash, hash)
    select f.actor_id, f.company_id, f.action, f.target_type, f.target_id, f.details, f.at, ${chainKey}::integer, head.seq, head.prev_hash, head.hash from fields f, head`;
}

/** One event of the audit trail, appended to its chain in the same transaction as the change it records. */
export async function recordAudit(db: Queryable, clock: Clock, event: AuditEvent): Promise<void> {
  await db.execute(appendAuditSql(clock, event));
}
