import { answer } from "./answer";

/** The error body's `code` when the caller needs a second factor first (set one up, or sign in again with one). */
export const secondFactorRequiredCode = "second_factor_required";
/** The error body's `code` when a security change needs a fresh proof of the password (and the second factor) first. */
export const reauthRequiredCode = "reauth_required";
export const apiErrorCodes = [secondFactorRequiredCode, reauthRequiredCode] as const;
export type ApiErrorCode = (typeof apiErrorCodes)[number];

/** The API's error body: every non-2xx answer has this shape (a 500 also carries the request's id for the logs). */
export const apiErrorBodySchema = answer.object({
  message: answer.string(),
  errors: answer.array(answer.object({ path: answer.string(), message: answer.string() })).optional(),
  requestId: answer.string().optional(),
  /** Set on some errors, so the client can act on the reason without reading the message. */
  code: answer.enum(apiErrorCodes).optional(),
});
export type ApiErrorBody = answer.infer<typeof apiErrorBodySchema>;
