// No validation library here: the dashboard's first load reads these rules and labels. The answers' schemas,
// bound to these types, are in compliance-schemas.ts.

/**
 * Compliance health on the wire: `GET /api/companies/:companyId/compliance` answers exactly three groups,
 * Meetings, Documents and Resolutions, in that order. Everything is computed from the company's record on
 * the server's clock; nothing here is a constant of the product.
 */

export const complianceCategories = ["meetings", "documents", "resolutions"] as const;
export type ComplianceCategory = (typeof complianceCategories)[number];

export const complianceStatuses = ["completed", "pending", "overdue", "upcoming"] as const;
export type ComplianceStatus = (typeof complianceStatuses)[number];

/** The three groups, by name, in the order the dashboard shows them. */
export const complianceGroupNames = ["Meetings", "Documents", "Resolutions"] as const;
export type ComplianceGroupName = (typeof complianceGroupNames)[number];

/**
 * One rule's verdict. `id` is the rule's stable id (e.g. "meetings.quarterly-board-meeting"), so a client,
 * a reminder and a calendar event can refer to the same rule across releases.
 */
export interface ComplianceItem {
  id: string;
  title: string;
  description: string;
  status: ComplianceStatus;
  /** ISO timestamp: when the rule is next due (absent when it has no date, e.g. "a Legal document on file"). */
  dueDate?: string;
  category: ComplianceCategory;
}

export interface ComplianceGroup {
  name: ComplianceGroupName;
  /** completed ÷ items × 100, rounded; 0 for a group without items. */
  progress: number;
  items: ComplianceItem[];
}

/** The label shown for a status; anything the client does not know reads "Unknown". */
export function complianceStatusLabel(status: string): string {
  switch (status) {
    case "completed":
      return "Completed";
    case "pending":
      return "In Progress";
    case "overdue":
      return "Overdue";
    case "upcoming":
      return "Upcoming";
    default:
      return "Unknown";
  }
}

/** A group's progress bar colour: red under 40, yellow under 70, green otherwise. */
export function complianceProgressTone(progress: number): "red" | "yellow" | "green" {
  if (progress < 40) return "red";
  if (progress < 70) return "yellow";
  return "green";
}

/** completed ÷ items, as a whole percentage. */
export function complianceProgress(items: readonly Pick<ComplianceItem, "status">[]): number {
  if (items.length === 0) return 0;
  const completed = items.filter((item) => item.status === "completed").length;
  return Math.round((completed / items.length) * 100);
}

/** Where a group's Manage button leads, by the category of the group's first item. */
export function complianceManagePath(category: string | undefined): string {
  switch (category) {
    case "meetings":
      return "/meetings";
    case "documents":
      return "/documents";
    case "resolutions":
      return "/resolutions";
    default:
      return "/";
  }
}

/** How far ahead a not-yet-completed rule with a due date becomes a reminder. */
export const reminderWindowDays = 60;

/**
 * The Compliance Reminders panel (and the calendar feed's alarms) show what is due or overdue: every item
 * that is overdue, and every item not completed whose due date falls within the reminder window.
 */
export function complianceReminders(groups: readonly ComplianceGroup[], now: Date): ComplianceItem[] {
  const horizon = now.getTime() + reminderWindowDays * 24 * 60 * 60 * 1000;
  return groups
    .flatMap((group) => group.items)
    .filter(
      (item) =>
        item.status === "overdue" || (item.status !== "completed" && item.dueDate !== undefined && Date.parse(item.dueDate) <= horizon),
    )
    .sort((a, b) => (a.dueDate ? Date.parse(a.dueDate) : 0) - (b.dueDate ? Date.parse(b.dueDate) : 0));
}

/** The stable ids of the rules, so the reminders, the feed and tests name the same rule. */
export const complianceRuleIds = {
  quarterlyBoardMeeting: "meetings.quarterly-board-meeting",
  annualGeneralMeeting: "meetings.annual-general-meeting",
  meetingNotice: "meetings.notice-period",
  financialStatements: "documents.financial-statements",
  legalDocuments: "documents.legal-documents",
  meetingMinutes: "documents.meeting-minutes",
  noExpiredResolutions: "resolutions.no-expired-pending",
  decidedWithQuorum: "resolutions.decided-with-quorum",
} as const;

/**
 * `GET /api/users/:id/calendar-feed` (and `POST .../rotate`): the address a calendar app subscribes to for
 * one company's meetings and compliance due dates, without signing in. The secret is in its query string;
 * rotating gives a new address and stops every old one.
 */
export interface CalendarFeed {
  url: string;
  companyId: number;
}
