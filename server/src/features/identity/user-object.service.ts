import type { User } from "../../../../shared/auth";
import type { CompanyRole } from "../../../../shared/roles";
import type { UserRow } from "../../http/request-context";

/** The user object `GET /api/auth/user`, login and register answer; the only shape in which a user leaves the server (never the hash). */
export function toUserObject(user: UserRow, activeRole: CompanyRole | null): User {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.activeCompanyId == null ? null : activeRole,
    isPlatformAdmin: user.isPlatformAdmin,
    profileImageUrl: user.profileImageUrl,
    companyId: user.activeCompanyId,
    secondFactor: user.secondFactor,
    emailVerified: user.emailVerified,
    pendingEmail: user.pendingEmail,
  };
}
