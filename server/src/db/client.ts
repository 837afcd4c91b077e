import { PGlite } from "@electric-sql/pglite";
import { DrizzleQueryError, type ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import * as schema from "./schema";

export type Schema = typeof schema;
/** Both drivers expose the same drizzle query API; services only see this type. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: what a service function that may join a transaction takes. */
export type Queryable = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: "postgres" | "pglite";
  close(): Promise<void>;
}

/** The embedded database lives in DATA_DIR/db, beside the generated secret; "memory://" stays in memory. */
export function embeddedDatabaseDir(dataDir: string): string {
  return dataDir.startsWith("memory://") ? dataDir : `${dataDir.replace(/\/+$/, "")}/db`;
}

/** Postgres through a `pg` pool when a URL is given, otherwise the embedded PGlite under dataDir ("memory://" for tests). */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  /** Called with every SQL statement drizzle sends (tests count queries with it). */
  onQuery?: (sql: string) => void;
  /** Told when an idle pooled connection dies (Postgres restarted, or the connection was terminated). */
  onIdleConnectionError?: (error: Error) => void;
}): Promise<DatabaseHandle> {
  // drizzle's logger is handed the parameters too: only the statement text goes on.
  const logger = options.onQuery ? { logQuery: (query: string) => options.onQuery!(query) } : undefined;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // Without a listener, pg re-throws an idle connection's error and the whole process dies;
    // the pool replaces the connection on the next query, so it is only worth a log line.
    pool.on("error", (error) => options.onIdleConnectionError?.(error));
    // A bad URL or a server that is down should fail at start-up, not at the first request.
    const probe = await pool.connect();
    probe.release();
    return {
      db: drizzlePg(pool, { schema, logger }) as unknown as Database,
      kind: "postgres",
      close: () => pool.end(),
    };
  }
  const client = await PGlite.create(options.dataDir);
  return {
    db: drizzlePglite(client, { schema, logger }) as unknown as Database,
    kind: "pglite",
    close: () => client.close(),
  };
}

/**
 * What a failed query tells without its data. drizzle wraps every driver error in a DrizzleQueryError whose
 * message and `params` hold the parameters (a password hash, a token digest); its `cause` is the driver's error,
 * which `pg` and PGlite shape alike: `code` (the SQLSTATE), `severity`, `table`, `column`, `constraint`, `routine`,
 * and a `detail` that may quote the row ("Failing row contains (...)"). PGlite's also carries `params`.
 */
export interface DatabaseFailure {
  /** Postgres's SQLSTATE, e.g. "23505"; absent when the server never answered (a lost connection). */
  sqlState?: string;
  /** The statement as drizzle sent it, with $1, $2… placeholders: never the values. */
  statement?: string;
  table?: string;
  column?: string;
  constraint?: string;
  /** Postgres's C function that raised it, e.g. "ExecConstraints". */
  routine?: string;
  /** A failure that is not Postgres's answer (a lost connection, a timeout): its own type, message and code. */
  cause?: { type: string; message: string; code?: string };
}

const sqlStatePattern = /^[0-9A-Z]{5}$/;

interface PostgresErrorFields {
  code?: unknown;
  severity?: unknown;
  table?: unknown;
  column?: unknown;
  constraint?: unknown;
  routine?: unknown;
  cause?: unknown;
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/** Reads a failed query from an error or its causes; undefined for an error that has nothing to do with the database. */
export function databaseFailureOf(error: unknown): DatabaseFailure | undefined {
  let failure: DatabaseFailure | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== null && typeof current === "object"; depth += 1) {
    const fields = current as PostgresErrorFields;
    // Postgres's own answer (from `pg` or PGlite): a five-character SQLSTATE and a severity.
    if (typeof fields.code === "string" && sqlStatePattern.test(fields.code) && typeof fields.severity === "string") {
      return {
        ...failure,
        sqlState: fields.code,
        table: text(fields.table),
        column: text(fields.column),
        constraint: text(fields.constraint),
        routine: text(fields.routine),
      };
    }
    if (current instanceof DrizzleQueryError) {
      failure = { statement: current.query };
    } else if (failure && current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      failure.cause = { type: current.name, message: current.message, ...(typeof code === "string" ? { code } : {}) };
      return failure;
    }
    current = fields.cause;
  }
  return failure;
}
