import pino, { type DestinationStream, type Logger } from "pino";
import { databaseFailureOf } from "./database-failure";

/**
 * Errors are logged with their type, message, stack and own fields, except a failed query: drizzle's message and
 * `params` carry the statement's values (a password hash during a sign-up), and Postgres's `detail` quotes the
 * row, so for those only the statement text, the SQLSTATE and the names of the table, column and constraint remain.
 */
export function serializeError(error: unknown): unknown {
  const failure = databaseFailureOf(error);
  if (!failure) return pino.stdSerializers.err(error as Error);
  const serialized: Record<string, unknown> = {
    type: error instanceof Error ? error.constructor.name : typeof error,
    message: failure.sqlState ? `Database error ${failure.sqlState}` : "Database query failed",
    ...failure,
  };
  const stack = stackFrames(error);
  if (stack) serialized.stack = stack;
  return serialized;
}

/** The stack's "at …" lines without the header, which repeats the message (and with it the values). */
function stackFrames(error: unknown): string | undefined {
  if (!(error instanceof Error) || typeof error.stack !== "string") return undefined;
  const header = `${error.name}: ${error.message}`;
  if (!error.stack.startsWith(header)) return undefined;
  return error.stack.slice(header.length).replace(/^\n/, "") || undefined;
}

/** A one-line description for the console (start-up failures), with the same care for failed queries. */
export function describeError(error: unknown): string {
  const failure = databaseFailureOf(error);
  if (failure) {
    const what = failure.sqlState
      ? `database error ${failure.sqlState}`
      : `database query failed (${failure.cause?.message ?? "no answer"})`;
    return failure.statement ? `${what} in: ${failure.statement}` : what;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Anything that could hold a secret, wherever someone logs it: headers, bodies, parameters, credentials. */
const redactedPaths = [
  "headers.authorization",
  "headers.cookie",
  "headers['set-cookie']",
  "*.headers.authorization",
  "*.headers.cookie",
  "*.headers['set-cookie']",
  "authorization",
  "cookie",
  "cookies",
  "*.cookies",
  "body",
  "*.body",
  "params",
  "*.params",
  "password",
  "*.password",
  "passwordHash",
  "*.passwordHash",
  "token",
  "*.token",
  "serviceKey",
  "*.serviceKey",
  // Second factors: an authenticator's secret, recovery codes, the challenge of a sign-in in progress.
  "secret",
  "*.secret",
  "recoveryCodes",
  "*.recoveryCodes",
  "challenge",
  "*.challenge",
];

/** JSON lines; anything that could hold a secret is redacted even if someone logs it by mistake. */
export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? "info",
      serializers: { err: serializeError, error: serializeError },
      hooks: {
        // logger.error(error) would make the error's message the line's msg: for a failed query, that message
        // lists the values. It goes through the serializer instead, with a description for msg.
        logMethod(args, method) {
          const [first, ...rest] = args;
          if (first instanceof Error && databaseFailureOf(first)) {
            return method.apply(this, [{ err: first }, ...(rest.length > 0 ? rest : [describeError(first)])] as Parameters<typeof method>);
          }
          return method.apply(this, args);
        },
      },
      redact: { paths: redactedPaths, censor: "[redacted]" },
    },
    options.destination,
  );
}
