import type { CompanyMember } from "@shared/companies";
import { roleLabel } from "@shared/roles";

/**
 * The Board Members search: members by first name, last name, e-mail or role, case-insensitively.
 * The role matches by its value ("observer") or by the label people see ("Board Member").
 */
export function filterMembers(members: readonly CompanyMember[], query: string): CompanyMember[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...members];
  return members.filter((member) =>
    [member.firstName, member.lastName, member.email, member.role, roleLabel(member.role)].some((value) =>
      value?.toLowerCase().includes(needle),
    ),
  );
}
