// A company's audit trail as its founders and admins read it: a page of events (newest first, filtered, with the
// chain's head), the whole chain in order for an export, and the chain recomputed to check that it holds.
import { timingSafeEqual } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { auditPageLimit, type AuditEventView, type AuditPage, type AuditQuery } from "../../../../shared/audit";
import {
  ChainVerifier,
  genesisHash,
  type ChainVerdict,
  type ChainedAuditEvent,
  type IncompleteExportTrailer,
} from "../../../../shared/audit-chain";
import { displayName } from "../../../../shared/people";
import type { ServiceDeps } from "../../app-deps";
import { auditChainKey } from "../../db/audit";
import type { Queryable } from "../../db/client";
import { badRequest } from "../../http/errors";
import { hmacFor } from "../../integrations/secrets";

/** How many events the export and the verification read per query: the chain is never all in memory. */
export const chainBatchSize = 500;

export const badCursorMessage = "The cursor is not one this list gave";

// An event's time exactly as its hash saw it (audit_event_hash): ISO 8601, UTC, milliseconds.
const atText = sql`to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/*
 * A cursor is the last seq of the page and an HMAC of (company, seq) under a key derived from APP_SECRET: a cursor
 * that was edited, made up, or given for another company is refused rather than read as a place in the list.
 */
function cursorSignature(companyId: number, seq: number, appSecret: string): string {
  return hmacFor("audit cursor", appSecret, `${companyId}.${seq}`).toString("base64url");
}

export function signCursor(companyId: number, seq: number, appSecret: string): string {
  return `${seq}-${cursorSignature(companyId, seq, appSecret)}`;
}

/** The seq a genuine cursor of this company stands for; a 400 for anything else. */
export function readCursor(cursor: string, companyId: number, appSecret: string): number {
  const match = /^(\d{1,10})-([A-Za-z0-9_-]{43})$/.exec(cursor);
  const seq = match ? Number(match[1]) : NaN;
  if (!match || !Number.isSafeInteger(seq) || seq < 1) throw badRequest(badCursorMessage);
  const expected = Buffer.from(cursorSignature(companyId, seq, appSecret));
  const given = Buffer.from(match[2]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw badRequest(badCursorMessage);
  return seq;
}

interface EventRow {
  seq: number;
  at: string;
  actor_id: number | null;
  company_id: number | null;
  action: string;
  target_type: string;
  target_id: string | null;
  details: unknown;
  prev_hash: string;
  hash: string;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

function chainedEvent(row: EventRow): ChainedAuditEvent {
  return {
    seq: Number(row.seq),
    at: row.at,
    actorId: row.actor_id == null ? null : Number(row.actor_id),
    companyId: row.company_id == null ? null : Number(row.company_id),
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    details: row.details ?? null,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/**
 * `GET /api/companies/:companyId/audit`: one statement whatever the page's length: the chain's head (genesis for a
 * chain with no event yet) left-joined to the page of events with their actors' names, so an empty page still
 * carries the head. One more row than the page is read to know whether a next page exists.
 */
export async function listAuditEvents(deps: ServiceDeps<"db" | "appSecret">, companyId: number, query: AuditQuery): Promise<AuditPage> {
  const limit = query.limit ?? auditPageLimit.default;
  const chainKey = auditChainKey(companyId);
  const filters: SQL[] = [sql`e.chain_key = ${chainKey}`];
  if (query.cursor !== undefined) filters.push(sql`e.seq < ${readCursor(query.cursor, companyId, deps.appSecret)}`);
  if (query.action !== undefined) filters.push(sql`e.action = ${query.action}`);
  if (query.actorId !== undefined) filters.push(sql`e.actor_id = ${query.actorId}`);
  if (query.from !== undefined) filters.push(sql`e.created_at >= ${query.from.toISOString()}::timestamptz`);
  if (query.to !== undefined) filters.push(sql`e.created_at <= ${query.to.toISOString()}::timestamptz`);

  const result = await deps.db.execute(sql`
    with head as (select coalesce((select hash from audit_chain_heads where chain_key = ${chainKey}), ${genesisHash}) as hash)
    select head.hash as head_hash, page.* from head left join lateral (
      select e.seq, ${atText} as at, e.actor_id, e.company_id, e.action, e.target_type, e.target_id, e.details, e.prev_hash, e.hash,
        u.first_name, u.last_name, u.username
      from audit_events e left join users u on u.id = e.actor_id
      where ${sql.join(filters, sql` and `)}
      order by e.seq desc
      limit ${limit + 1}
    ) page on true
    order by page.seq desc`);
  const rows = rowsOf<EventRow & { head_hash: string; first_name: string | null; last_name: string | null; username: string | null }>(
    result,
  );
  const headHash = rows[0]?.head_hash ?? genesisHash;
  const found = rows.filter((row) => row.seq != null);
  const page = found.slice(0, limit);
  const events: AuditEventView[] = page.map((row) => ({
    ...chainedEvent(row),
    actorName:
      row.actor_id == null || row.username == null
        ? null
        : displayName({ firstName: row.first_name, lastName: row.last_name, username: row.username }),
  }));
  const last = page.at(-1);
  const nextCursor = found.length > limit && last ? signCursor(companyId, Number(last.seq), deps.appSecret) : null;
  return { events, nextCursor, headHash };
}

/** Where a chain ends: its last seq and hash (0 and genesis for a chain with no event yet). */
export interface ChainHead {
  count: number;
  headHash: string;
}

export async function chainHead(db: Queryable, companyId: number): Promise<ChainHead> {
  const result = await db.execute(sql`select seq, hash from audit_chain_heads where chain_key = ${auditChainKey(companyId)}`);
  const [row] = rowsOf<{ seq: number; hash: string }>(result);
  return row ? { count: Number(row.seq), headHash: row.hash } : { count: 0, headHash: genesisHash };
}

/**
 * The company's events in seq order up to `head` (events appended meanwhile belong to a later head), read
 * `chainBatchSize` at a time on the (chain, seq) index.
 */
export async function* chainEvents(db: Queryable, companyId: number, head: ChainHead): AsyncGenerator<ChainedAuditEvent> {
  const chainKey = auditChainKey(companyId);
  let after = 0;
  while (after < head.count) {
    const result = await db.execute(sql`
      select e.seq, ${atText} as at, e.actor_id, e.company_id, e.action, e.target_type, e.target_id, e.details, e.prev_hash, e.hash
      from audit_events e
      where e.chain_key = ${chainKey} and e.seq > ${after} and e.seq <= ${head.count}
      order by e.seq
      limit ${chainBatchSize}`);
    const rows = rowsOf<EventRow>(result);
    if (rows.length === 0) return;
    for (const row of rows) yield chainedEvent(row);
    after = Number(rows.at(-1)!.seq);
  }
}

/**
 * The export's lines: each event in seq order, then the trailer with the head the events must end at. A read that
 * fails midway ends the file with `{"incomplete": true, …}` instead (how many events it holds of how many), so the
 * file says it is cut short rather than merely lacking its last line; `onFailure` hears why.
 */
export async function* exportLines(
  db: Queryable,
  companyId: number,
  head: ChainHead,
  onFailure: (error: unknown) => void,
): AsyncGenerator<string> {
  let written = 0;
  try {
    for await (const event of chainEvents(db, companyId, head)) {
      yield `${JSON.stringify(event)}\n`;
      written += 1;
    }
  } catch (error) {
    onFailure(error);
    const trailer: IncompleteExportTrailer = {
      incomplete: true,
      count: written,
      expectedCount: head.count,
      expectedHeadHash: head.headHash,
    };
    yield `${JSON.stringify(trailer)}\n`;
    return;
  }
  yield `${JSON.stringify({ headHash: head.headHash, count: head.count })}\n`;
}

/**
 * Every event's link and hash recomputed in seq order up to `head`, and the last one held against it; a missing
 * event, an edited one, or a head that does not match is the first broken link.
 */
async function verifyChainUpTo(db: Queryable, companyId: number, head: ChainHead): Promise<ChainVerdict> {
  const verifier = new ChainVerifier();
  for await (const event of chainEvents(db, companyId, head)) {
    if (!(await verifier.add(event))) break;
  }
  return verifier.verdict(head);
}

const sameHead = (a: ChainHead, b: ChainHead) => a.count === b.count && a.headHash === b.headHash;

/**
 * `GET /api/companies/:companyId/audit/verify`, for the instance: one at a time per company (a call while one runs for the same head shares it),
 * and each verdict kept until the chain's head changes, so asking again costs one read of the head. An event edited in
 * place without a new head shows at the next verification after the head moves (any audited action).
 */
export function createChainVerifications(maxKept = 1_000) {
  const kept = new Map<number, { head: ChainHead; verdict: ChainVerdict }>();
  const running = new Map<number, Promise<{ head: ChainHead; verdict: ChainVerdict }>>();
  return async function verify({ db }: ServiceDeps<"db">, companyId: number): Promise<ChainVerdict> {
    for (;;) {
      const head = await chainHead(db, companyId);
      const known = kept.get(companyId);
      if (known && sameHead(known.head, head)) return known.verdict;
      const current = running.get(companyId);
      if (current) {
        const done = await current.catch(() => null);
        if (done && sameHead(done.head, head)) return done.verdict;
        // It checked an older head, or failed: read the head again and wait for, or start, the next one.
        continue;
      }
      // Looked up and set with no await between: two callers never both start.
      const work = verifyChainUpTo(db, companyId, head).then((verdict) => ({ head, verdict }));
      running.set(companyId, work);
      try {
        const done = await work;
        kept.delete(companyId);
        // The company verified longest ago goes first (a Map keeps insertion order).
        if (kept.size >= maxKept) kept.delete(kept.keys().next().value!);
        kept.set(companyId, done);
        return done.verdict;
      } finally {
        running.delete(companyId);
      }
    }
  };
}
