import type { ErrorRequestHandler, RequestHandler } from "express";
import { ZodError } from "zod";
import { secondFactorRequiredCode, type ApiErrorBody, type ApiErrorCode } from "../../../shared/api-error";
import { databaseFailureOf } from "../database-failure";

/** Services throw this; the error handler turns it into the API's error body ({message, errors?}). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly errors?: ApiErrorBody["errors"],
    /** A machine-readable reason the client acts on (e.g. sending the caller to set up a second factor). */
    readonly code?: ApiErrorCode,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const notFound = (message = "Not found") => new HttpError(404, message);
export const forbidden = (message = "You do not have permission to do that") => new HttpError(403, message);
export const badRequest = (message: string) => new HttpError(400, message);
export const conflict = (message: string) => new HttpError(409, message);
export const unauthorized = (message = "Not authenticated") => new HttpError(401, message);
/** 403 for a caller who must first pass (or set up) a second factor; the body's code tells the client so. */
export const secondFactorRequired = (message: string) => new HttpError(403, message, {}, undefined, secondFactorRequiredCode);

export function zodErrorBody(error: ZodError): ApiErrorBody {
  const errors = error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
  return { message: errors[0]?.message ?? "Invalid request", errors };
}

/** Postgres unique violation: a concurrent insert lost a race the service had already checked for. */
export function isUniqueViolation(error: unknown): boolean {
  return databaseFailureOf(error)?.sqlState === "23505";
}

/**
 * SQLSTATEs by which Postgres refuses a value the request carried: the caller's fault, so a 400 rather than a 500.
 * Validation should refuse such input first; this is the net under it, for both drivers alike.
 */
export const unstorableValueStates: ReadonlyMap<string, string> = new Map([
  ["22021", "invalid byte sequence (a NUL character in text)"],
  ["22P05", "untranslatable character (\\u0000 in JSON)"],
  ["22003", "numeric value out of range (an id beyond integer)"],
  ["22008", "datetime field overflow (year 0)"],
  ["22007", "invalid datetime format"],
  ["22009", "time zone displacement out of range (a date of year 10000 and beyond, as JavaScript writes it)"],
  ["22001", "value too long for its column"],
  ["54000", "program limit exceeded (an index row too large)"],
  ["22P02", "invalid text representation"],
]);

export const unstorableValueMessage = "The request holds a value the database cannot store";

export const apiNotFound: RequestHandler = (req, _res, next) => {
  next(new HttpError(404, `No API route for ${req.method} ${req.path}`));
};

interface BodyParserError {
  type?: string;
  status?: number;
}

export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  // A browser that left the page while a file was on its way (sendFile calls back with ECONNABORTED) is no fault of
  // ours: nobody is left to answer.
  if ((error as { code?: unknown }).code === "ECONNABORTED") {
    req.log.info("the client went away before its answer was sent");
    res.destroy();
    return;
  }
  if (res.headersSent) {
    req.log.error({ err: error }, "error after headers were sent");
    return;
  }
  if (error instanceof HttpError) {
    res.set(error.headers);
    const body: ApiErrorBody = { message: error.message };
    if (error.errors) body.errors = error.errors;
    if (error.code) body.code = error.code;
    res.status(error.status).json(body);
    return;
  }
  if (error instanceof ZodError) {
    res.status(400).json(zodErrorBody(error));
    return;
  }
  const sqlState = databaseFailureOf(error)?.sqlState;
  if (sqlState && unstorableValueStates.has(sqlState)) {
    // The logger's error serializer keeps the statement and the SQLSTATE, never the values.
    req.log.warn({ err: error, sqlState }, "the database refused a value in the request");
    res.status(400).json({ message: unstorableValueMessage });
    return;
  }
  const parserError = error as BodyParserError;
  switch (parserError.type) {
    case "entity.parse.failed":
      res.status(400).json({ message: "Malformed JSON in request body" });
      return;
    case "entity.too.large":
      res.status(413).json({ message: "Request body is too large" });
      return;
    case "encoding.unsupported":
    case "charset.unsupported":
      res.status(415).json({ message: "Unsupported request encoding" });
      return;
  }
  if (typeof parserError.status === "number" && parserError.status >= 400 && parserError.status < 500) {
    res.status(parserError.status).json({ message: parserError.status === 404 ? "Not found" : "Bad request" });
    return;
  }
  req.log.error({ err: error }, "unhandled error");
  res.status(500).json({ message: "Internal error", requestId: req.id });
};
