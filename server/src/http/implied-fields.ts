import { HttpError } from "./errors";
import type { TenantContext } from "./request-context";

export interface ImpliedFields {
  /** A body's companyId: must name the tenant's company. */
  companyId?: unknown;
  /** The body field naming the actor (e.g. "uploadedBy"), and its value: must be the signed-in user. */
  actor?: { field: string; id: unknown };
  /** Says which company the route acts in; the active company unless the address names it. */
  companyMessage?: string;
}

const invalid = (path: string, message: string) => new HttpError(400, message, {}, [{ path, message }]);

/**
 * Body fields that name the company or the actor are checked against the request's company and the signed-in
 * user, never trusted: a body cannot act for someone else or in another company. Absent (undefined or null) is fine: the route implies them;
 * anything else, the empty string included, must match (400 with the field in `errors`).
 */
export function assertImpliedFields(tenant: TenantContext, fields: ImpliedFields): void {
  if (fields.companyId != null && String(fields.companyId) !== String(tenant.company.id)) {
    throw invalid("companyId", fields.companyMessage ?? "companyId must be your active company");
  }
  const actor = fields.actor;
  if (actor && actor.id != null && String(actor.id) !== String(tenant.user.id)) {
    throw invalid(actor.field, `${actor.field} must be the signed-in user`);
  }
}
