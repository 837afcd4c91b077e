import { ApiError, serverMessageOf } from "@/lib/api-client";

/** Why the server refused a change: its message, and a 400's messages for each field (each once). */
export interface Refusal {
  message: string;
  fields: string[];
}

/** The server's refusal of `error`, or `fallback` when it said nothing (a network failure). */
export function refusalOf(error: unknown, fallback: string): Refusal {
  const message = serverMessageOf(error) ?? fallback;
  const fields = error instanceof ApiError ? error.fieldErrors.map((field) => field.message) : [];
  return { message, fields: [...new Set(fields)].filter((field) => field !== message) };
}
