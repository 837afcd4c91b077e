import { z } from "zod";
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

/** A positive integer route parameter, or 404 (an id that cannot exist names nothing). */
export function idParam(value: string | string[] | undefined): number {
  const id = typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(404, "Not found");
  return id;
}
