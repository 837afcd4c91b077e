import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
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
  /**
   * Opens the instance's listening connection for these channels (Postgres: a connection of its own, outside the
   * pool; embedded: the one connection, which delivers a notification as its transaction commits). `onLost` is
   * told when the connection fails; the listener is then closed and the caller opens another.
   */
  listen(
    channels: readonly string[],
    onNotification: (channel: string, payload: string) => void,
    onLost: (error: Error) => void,
  ): Promise<Listener>;
  /**
   * The embedded database only: runs `work` while no statement and no transaction is in flight, so its files on disk
   * are what a crash at that instant would leave (every commit's WAL written): a copy taken then recovers to it.
   */
  holdStill?<T>(work: () => T | Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface Listener {
  /**
   * Queries on the listening connection itself (embedded: the one connection). Whatever is read here does not
   * wait for a pooled connection, however busy the pool is with writes.
   */
  db: Database;
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
  /** The embedded database only: start from this dump of a data directory instead of an empty one. */
  embeddedSnapshot?: Blob;
}): Promise<DatabaseHandle> {
  // drizzle's logger is handed the parameters too: only the statement text goes on.
  const logger = options.onQuery ? { logQuery: (query: string) => options.onQuery!(query) } : undefined;
  // Each driver is loaded only when it is the one used: the other would add tens of milliseconds to every start.
  if (options.databaseUrl) {
    const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([import("pg"), import("drizzle-orm/node-postgres")]);
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
      listen: (channels, onNotification, onLost) => listenOnPostgres(options.databaseUrl!, channels, onNotification, onLost, logger),
      close: () => pool.end(),
    };
  }
  const [{ PGlite }, { drizzle: drizzlePglite }] = await Promise.all([import("@electric-sql/pglite"), import("drizzle-orm/pglite")]);
  const client = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.embeddedSnapshot });
  const db = drizzlePglite(client, { schema, logger }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    listen: async (channels, onNotification) => {
      const stops = await Promise.all(channels.map((channel) => client.listen(channel, (payload) => onNotification(channel, payload))));
      return { db, close: async () => void (await Promise.all(stops.map((stop) => stop()))) };
    },
    // A transaction holds the lock every statement outside it waits on; runExclusive, the one statements inside it take.
    holdStill: (work) => client.transaction(() => client.runExclusive(async () => work())),
    close: () => client.close(),
  };
}

async function listenOnPostgres(
  databaseUrl: string,
  channels: readonly string[],
  onNotification: (channel: string, payload: string) => void,
  onLost: (error: Error) => void,
  logger: { logQuery(query: string): void } | undefined,
): Promise<Listener> {
  const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([import("pg"), import("drizzle-orm/node-postgres")]);
  // Named, so it can be told apart in pg_stat_activity.
  // Its reads (the live counts) give up rather than wait on a lock: notifications arrive only between statements.
  const connection = new pg.Client({
    connectionString: databaseUrl,
    keepAlive: true,
    application_name: "quorum-listener",
    lock_timeout: 1000,
    statement_timeout: 2000,
  });
  let lost = false;
  const fail = (error: Error) => {
    if (lost) return;
    lost = true;
    connection.end().catch(() => undefined);
    onLost(error);
  };
  connection.on("error", fail);
  connection.on("end", () => fail(new Error("the listening connection ended")));
  connection.on("notification", (message) => {
    if (message.payload !== undefined) onNotification(message.channel, message.payload);
  });
  try {
    await connection.connect();
    // The channel names are constants of ours, never input.
    for (const channel of channels) await connection.query(`LISTEN ${channel}`);
  } catch (error) {
    lost = true;
    await connection.end().catch(() => undefined);
    throw error;
  }
  return {
    db: drizzlePg(connection, { schema, logger }) as unknown as Database,
    close: async () => {
      lost = true;
      await connection.end();
    },
  };
}
