import { companyRoles, hasRoleAtLeast, type CompanyRole } from "./roles";

/**
 * Who may do what in a company: the one list both the server's guards and the screens read, so a
 * rule can never differ between them. Each capability names the lowest role that holds it
 * (founder > admin > member > observer) and the message a caller below it is refused with (403).
 */
export const permissions = {
  scheduleMeeting: { minRole: "member", deniedMessage: "Observers cannot schedule meetings" },
  /** Any meeting's agenda; a meeting's creator may edit its own (`canEditAgenda`). */
  editAnyAgenda: { minRole: "admin", deniedMessage: "Only founders, admins and the meeting's creator can edit the agenda" },
  /** Any meeting's record (attendance, a show of hands, minutes, action items); its creator may keep its own (`canKeepMeetingRecord`). */
  keepAnyMeetingRecord: {
    minRole: "admin",
    deniedMessage: "Only founders, admins and the meeting's creator can keep the meeting's record",
  },
  /** Edit or reassign any action item; an owner may only mark their own done or open. */
  editActionItems: { minRole: "admin", deniedMessage: "Only founders and admins can change an action item; its owner can mark it done" },
  /** Confirm, reschedule or cancel a meeting. */
  manageMeeting: { minRole: "admin", deniedMessage: "Only founders and admins can confirm, reschedule or cancel a meeting" },
  uploadDocument: { minRole: "member", deniedMessage: "Observers cannot upload documents" },
  /** One's own documents; deleting anyone's needs `deleteAnyDocument`. */
  deleteDocument: { minRole: "member", deniedMessage: "Observers cannot delete documents" },
  deleteAnyDocument: { minRole: "admin", deniedMessage: "Only founders, admins and the uploader can delete a document" },
  createResolution: { minRole: "member", deniedMessage: "Observers cannot create resolutions" },
  vote: { minRole: "member", deniedMessage: "Observers cannot vote" },
  manageMembers: { minRole: "admin", deniedMessage: "Only founders and admins can add members" },
  changeRole: { minRole: "admin", deniedMessage: "Only founders and admins can change roles" },
  /** Making someone a founder, or changing a founder's role. */
  assignFounder: { minRole: "founder", deniedMessage: "Only a founder can make or remove a founder" },
  editCompany: { minRole: "admin", deniedMessage: "Only founders and admins can update the company" },
  /** Read, export and verify the company's audit trail. */
  viewAudit: { minRole: "admin", deniedMessage: "Only founders and admins can read the audit log" },
  /** Download the whole record as one archive. */
  exportArchive: { minRole: "admin", deniedMessage: "Only founders and admins can download the board's archive" },
} as const satisfies Record<string, { minRole: CompanyRole; deniedMessage: string }>;

export type Permission = keyof typeof permissions;

/** True when a company role holds the capability. No role (no company) holds none. */
export function can(role: CompanyRole | null | undefined, permission: Permission): boolean {
  return hasRoleAtLeast(role, permissions[permission].minRole);
}

/** The roles that vote on resolutions (and count towards their quorum). */
export const votingRoles: CompanyRole[] = companyRoles.filter((role) => can(role, "vote"));

/** The refusal a caller without the capability gets. */
export function deniedMessage(permission: Permission): string {
  return permissions[permission].deniedMessage;
}

/** Its uploader (unless an observer), or a founder or admin of the company. */
export function canDeleteDocument(role: CompanyRole | null | undefined, isUploader: boolean): boolean {
  return can(role, "deleteAnyDocument") || (isUploader && can(role, "deleteDocument"));
}

/** A founder or admin, or the meeting's creator while they may still schedule meetings. */
export function canEditAgenda(role: CompanyRole | null | undefined, isCreator: boolean): boolean {
  return can(role, "editAnyAgenda") || (isCreator && can(role, "scheduleMeeting"));
}

/**
 * A founder or admin, or the meeting's creator while they may still schedule meetings: who records attendance,
 * the show of hands, the minutes and the action items of a meeting.
 */
export function canKeepMeetingRecord(role: CompanyRole | null | undefined, isCreator: boolean): boolean {
  return can(role, "keepAnyMeetingRecord") || (isCreator && can(role, "scheduleMeeting"));
}

/**
 * Platform administration is not a company role: it is a flag on the account, and it grants no access
 * to any company's board data.
 */
export const platformAdminDeniedMessage = "Platform administrators only";

export function canAdministerPlatform(user: { isPlatformAdmin: boolean } | null | undefined): boolean {
  return user?.isPlatformAdmin === true;
}
