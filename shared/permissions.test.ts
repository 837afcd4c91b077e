import { can, canAdministerPlatform, canDeleteDocument, deniedMessage, permissions } from "./permissions";
import { companyRoles } from "./roles";

describe("permissions", () => {
  it("lets members do the board's work and keeps observers to reading", () => {
    for (const permission of ["scheduleMeeting", "uploadDocument", "createResolution", "vote"] as const) {
      expect(can("member", permission)).toBe(true);
      expect(can("observer", permission)).toBe(false);
    }
    expect(deniedMessage("vote")).toBe("Observers cannot vote");
    expect(deniedMessage("scheduleMeeting")).toBe("Observers cannot schedule meetings");
  });

  it("keeps the company's administration to founders and admins, and founders to founders", () => {
    for (const permission of ["manageMembers", "changeRole", "editCompany"] as const) {
      expect(companyRoles.filter((role) => can(role, permission))).toEqual(["founder", "admin"]);
    }
    expect(companyRoles.filter((role) => can(role, "assignFounder"))).toEqual(["founder"]);
  });

  it("grants nothing without a company role", () => {
    for (const permission of Object.keys(permissions) as (keyof typeof permissions)[]) {
      expect(can(null, permission)).toBe(false);
      expect(can(undefined, permission)).toBe(false);
    }
  });

  it("lets the uploader, a founder or an admin delete a document, never an observer", () => {
    expect(canDeleteDocument("member", true)).toBe(true);
    expect(canDeleteDocument("member", false)).toBe(false);
    expect(canDeleteDocument("admin", false)).toBe(true);
    expect(canDeleteDocument("founder", false)).toBe(true);
    expect(canDeleteDocument("observer", true)).toBe(false);
  });

  it("treats platform administration as an account flag, not a role", () => {
    expect(canAdministerPlatform({ isPlatformAdmin: true })).toBe(true);
    expect(canAdministerPlatform({ isPlatformAdmin: false })).toBe(false);
    expect(canAdministerPlatform(null)).toBe(false);
  });
});
