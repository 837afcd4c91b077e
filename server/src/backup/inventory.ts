import { sql } from "drizzle-orm";
import type { ChainVerdict } from "../../../shared/audit-chain";
import type { Database } from "../db/client";
import { createChainVerifications } from "../features/audit/audit.service";

/**
 * What a database holds, in a form two copies of it can be compared by: each table's rows counted and hashed, each
 * audit chain's head, and the newest migration applied. A table's hash is the SHA-256 of its rows' own SHA-256s
 * (of each row's text, its bytea values as their SHA-256) in sorted order, so it does not depend on where the rows lie.
 */
export interface TableInventory {
  /** "schema.table". */
  name: string;
  rows: number;
  sha256: string;
}

export interface AuditHead {
  chainKey: number;
  seq: number;
  hash: string;
}

export interface Inventory {
  tables: TableInventory[];
  auditHeads: AuditHead[];
  /** The `when` of the newest migration the database recorded (0 for none). */
  newestMigration: number;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The rows' text depends on these settings (dates above all): fixed, so every copy hashes alike. */
const hashingSettings = [
  "set timezone to 'UTC'",
  "set datestyle to 'ISO, YMD'",
  "set intervalstyle to 'postgres'",
  "set extra_float_digits to 1",
  "set bytea_output to 'hex'",
];

/** Counts and hashes every table (in every schema but the system's); the database is one nobody else writes to. */
export async function takeInventory(db: Database): Promise<Inventory> {
  for (const setting of hashingSettings) await db.execute(sql.raw(setting));
  const tableNames = rowsOf<{ schema: string; name: string }>(
    await db.execute(sql`
      select n.nspname as schema, c.relname as name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
      order by n.nspname collate "C", c.relname collate "C"`),
  );
  const tables: TableInventory[] = [];
  for (const { schema, name } of tableNames) {
    // The names come from the catalog, never from input.
    const table = `${quoted(schema)}.${quoted(name)}`;
    const columns = rowsOf<{ name: string; bytes: boolean }>(
      await db.execute(sql`
        select attname as name, atttypid = 'bytea'::regtype as bytes
        from pg_attribute where attrelid = ${table}::regclass and attnum > 0 and not attisdropped order by attnum`),
    );
    // A file's bytes enter as their SHA-256: written out as hex within the row's text, they would cost twice their size.
    const values = columns.map((column) => (column.bytes ? `sha256(t.${quoted(column.name)})` : `t.${quoted(column.name)}`));
    const [row] = rowsOf<{ rows: number; sha256: string }>(
      await db.execute(
        sql.raw(`
          select count(*)::int as rows,
            encode(sha256(convert_to(coalesce(string_agg(row_hash, '' order by row_hash collate "C"), ''), 'UTF8')), 'hex') as sha256
          from (select encode(sha256(convert_to(row(${values.join(", ")})::text, 'UTF8')), 'hex') as row_hash from ${table} t) hashed`),
      ),
    );
    tables.push({ name: `${schema}.${name}`, rows: Number(row!.rows), sha256: row!.sha256 });
  }
  const auditHeads = rowsOf<{ chain_key: number; seq: number; hash: string }>(
    await db.execute(sql`select chain_key, seq, hash from audit_chain_heads order by chain_key`),
  ).map((head) => ({ chainKey: Number(head.chain_key), seq: Number(head.seq), hash: head.hash }));
  const [migration] = rowsOf<{ newest: string | number | null }>(
    await db.execute(sql`select max(created_at) as newest from drizzle.__drizzle_migrations`),
  );
  return { tables, auditHeads, newestMigration: Number(migration?.newest ?? 0) };
}

/** Each chain recomputed event by event up to its head (the audit trail's own verification); the chains that fail. */
export async function brokenAuditChains(db: Database, heads: AuditHead[]): Promise<{ chainKey: number; verdict: ChainVerdict }[]> {
  const verify = createChainVerifications();
  const broken: { chainKey: number; verdict: ChainVerdict }[] = [];
  for (const head of heads) {
    const verdict = await verify({ db }, head.chainKey);
    if (!verdict.ok || verdict.count !== head.seq || verdict.headHash !== head.hash) broken.push({ chainKey: head.chainKey, verdict });
  }
  return broken;
}

/** How `found` differs from `expected`, one line per difference (none: the same). */
export function inventoryDifferences(expected: Inventory, found: Inventory): string[] {
  const differences: string[] = [];
  const foundTables = new Map(found.tables.map((table) => [table.name, table]));
  for (const table of expected.tables) {
    const other = foundTables.get(table.name);
    if (!other) differences.push(`table ${table.name} is missing`);
    else if (other.rows !== table.rows) differences.push(`table ${table.name} has ${other.rows} rows, not ${table.rows}`);
    else if (other.sha256 !== table.sha256) differences.push(`table ${table.name}'s rows differ (hash ${other.sha256})`);
    foundTables.delete(table.name);
  }
  for (const name of foundTables.keys()) differences.push(`table ${name} was not in the backup`);
  const foundHeads = new Map(found.auditHeads.map((head) => [head.chainKey, head]));
  for (const head of expected.auditHeads) {
    const other = foundHeads.get(head.chainKey);
    if (!other || other.seq !== head.seq || other.hash !== head.hash) {
      differences.push(
        `audit chain ${head.chainKey} ends at ${other ? `${other.seq} ${other.hash}` : "nothing"}, not ${head.seq} ${head.hash}`,
      );
    }
    foundHeads.delete(head.chainKey);
  }
  for (const chainKey of foundHeads.keys()) differences.push(`audit chain ${chainKey} was not in the backup`);
  return differences;
}
