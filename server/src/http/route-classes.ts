/**
 * Every /api route belongs to exactly one class, and the class is whatever its guard enforces:
 * - `company`: a company's data, named by the path (`/api/companies/:companyId/...`) or the caller's active
 *   company; a non-member gets 403 and no data;
 * - `thing`: one of a company's things loaded by id (a document, a meeting...); another company's is not
 *   found (404), exactly like an id that names nothing;
 * - `own-user`: the caller's own account — named by the session, by `/api/users/:id` (anyone else's: 403),
 *   or a thing of theirs (anyone else's: 404);
 * - `platform`: platform administrators only;
 * - `public`: no guard; a short explicit list (health, register, login).
 * Each guard marks the handler it returns with what it enforces, so the route walker of the tenancy test
 * reads a route's class from the guards it really runs and cannot drift from them.
 */
export type RouteClass = "public" | "own-user" | "company" | "thing" | "platform";

export type GuardMark =
  /** requireAuth: a signed-in caller. Alone, the route acts on the caller's own account only. */
  | { class: "own-user"; by: "session" }
  /** requireOwnResource: the user the path parameter names must be the caller. */
  | { class: "own-user"; by: "param"; param: string }
  /** requireOwnThing: a thing that must belong to the caller. */
  | { class: "own-user"; by: "owner" }
  /** requireCompanyMember on a company path parameter. */
  | { class: "company"; by: "param"; param: string }
  /** requireCompanyMember on the caller's active company. */
  | { class: "company"; by: "active" }
  /** requireCompanyMember on a thing loaded by id (or a company named in the body): another company's is not found. */
  | { class: "thing" }
  /**
   * requireAuthThenThingInService: a thing loaded by id whose membership check runs in the service, in the
   * statement that reads the thing under its row lock (a vote): another company's is not found.
   */
  | { class: "thing"; by: "service" }
  /** requirePlatformAdmin. */
  | { class: "platform" };

const marks = new WeakMap<object, GuardMark>();

/** Records what a guard's handler enforces; answers the handler. */
export function markGuard<Handler extends object>(handler: Handler, mark: GuardMark): Handler {
  marks.set(handler, mark);
  return handler;
}

/** What a route handler enforces, if it is a guard. */
export function guardMarkOf(handler: unknown): GuardMark | undefined {
  return typeof handler === "function" ? marks.get(handler) : undefined;
}
