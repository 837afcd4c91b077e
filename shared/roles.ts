export const companyRoles = ["founder", "admin", "member", "observer"] as const;
export type CompanyRole = (typeof companyRoles)[number];

/** Roles that can be given through the role select (founder is never assigned by the select). */
export const assignableRoles = ["admin", "member", "observer"] as const;

const roleRank: Record<CompanyRole, number> = { observer: 0, member: 1, admin: 2, founder: 3 };

/** True when `role` is at least `minimum` in the founder > admin > member > observer order. */
export function hasRoleAtLeast(role: CompanyRole | null | undefined, minimum: CompanyRole): boolean {
  return role != null && roleRank[role] >= roleRank[minimum];
}

/** How roles read on screen: anything unknown reads as Observer. */
export function roleLabel(role: string | null | undefined): string {
  switch (role) {
    case "founder":
      return "Founder / Admin";
    case "admin":
      return "Admin";
    case "member":
      return "Board Member";
    default:
      return "Observer";
  }
}

/** Founders and admins: the roles that manage members and the company profile. */
export function isCompanyAdmin(role: CompanyRole | null | undefined): boolean {
  return hasRoleAtLeast(role, "admin");
}
