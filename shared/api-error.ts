import { answer } from "./answer";

/** The API's error body: every non-2xx answer has this shape (a 500 also carries the request's id for the logs). */
export const apiErrorBodySchema = answer.object({
  message: answer.string(),
  errors: answer.array(answer.object({ path: answer.string(), message: answer.string() })).optional(),
  requestId: answer.string().optional(),
});
export type ApiErrorBody = answer.infer<typeof apiErrorBodySchema>;
