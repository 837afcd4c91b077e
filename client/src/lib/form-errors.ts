import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { ApiError } from "@/lib/api-client";

/**
 * Puts a failed request's field errors on the form's fields: each `{path, message}` of an error answer's
 * `errors` goes on the field of that name, or on the field `rename` maps it to (the server's `location`
 * is the wizard's `city`). Paths that name no field of the form are left out. With `conflictField`, the
 * message of a 409 (the e-mail is already taken...) goes on that field. Anything that is not an
 * ApiError puts nothing anywhere.
 */
export function applyServerErrors<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, "setError" | "getValues">,
  error: unknown,
  { rename = {}, conflictField }: { rename?: Partial<Record<string, Path<T>>>; conflictField?: Path<T> } = {},
): void {
  if (!(error instanceof ApiError)) return;
  if (conflictField && error.status === 409 && error.serverMessage) form.setError(conflictField, { message: error.serverMessage });
  const fields = form.getValues();
  for (const { path, message } of error.fieldErrors) {
    const field = rename[path] ?? path;
    if (field in fields) form.setError(field as Path<T>, { message });
  }
}
