import { DrizzleQueryError } from "drizzle-orm";

// Foundation, beside the logger that needs it: reading a failed query must not pull in the database client.
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
