import { assignableRoles, roleLabel, type CompanyRole } from "@shared/roles";

/** The roles a select offers: admin, member, observer (spec §6), and founder when a founder is choosing. */
export function roleOptions(actorRole: CompanyRole | null | undefined): { value: CompanyRole; label: string }[] {
  const roles: CompanyRole[] = actorRole === "founder" ? ["founder", ...assignableRoles] : [...assignableRoles];
  return roles.map((value) => ({ value, label: roleLabel(value) }));
}
