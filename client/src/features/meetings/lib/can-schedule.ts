import { hasRoleAtLeast, type CompanyRole } from "@shared/roles";

/**
 * Whether the user's role may schedule meetings: members and up. The server refuses observers
 * (403 "Observers cannot schedule meetings"), so their screens offer no scheduling action.
 */
export function canScheduleMeetings(role: CompanyRole | null | undefined): boolean {
  return hasRoleAtLeast(role, "member");
}
