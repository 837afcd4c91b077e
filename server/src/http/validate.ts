import { z } from "zod";
import { parseId } from "../../../shared/input";
import type { $ZodType } from "zod/v4/core";
import { HttpError, zodErrorBody } from "./errors";

/** Parses a body, query or params object with a classic or mini schema; failure is a 400 with the schema's messages. */
export function parseOr400<Schema extends $ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const result = z.safeParse(schema, value ?? {});
  if (!result.success) {
    const body = zodErrorBody(result.error);
    throw new HttpError(400, body.message, {}, body.errors);
  }
  return result.data;
}

/** A route's id parameter, or 404: an id that cannot exist (beyond Postgres' integer range too) names nothing. */
export function idParam(value: string | string[] | undefined): number {
  const id = typeof value === "string" ? parseId(value) : null;
  if (id === null) throw new HttpError(404, "Not found");
  return id;
}
