import { can } from "@shared/permissions";
import { assignableRoles, roleLabel, type CompanyRole } from "@shared/roles";

/** The roles a select offers: admin, member and observer, and founder to someone who may make founders. */
export function roleOptions(actorRole: CompanyRole | null | undefined): { value: CompanyRole; label: string }[] {
  const roles: CompanyRole[] = can(actorRole, "assignFounder") ? ["founder", ...assignableRoles] : [...assignableRoles];
  return roles.map((value) => ({ value, label: roleLabel(value) }));
}
