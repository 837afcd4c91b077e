import { Building2, CalendarDays, FileText, Gavel, LayoutDashboard, Settings, ShieldCheck, Users, type LucideIcon } from "lucide-react";

export interface NavItem {
  label: string;
  href: string;
  icon: LucideIcon;
}

/** The navigation every signed-in user sees (desktop sidebar and mobile menu). */
export const mainNavItems: NavItem[] = [
  { label: "Dashboard", href: "/", icon: LayoutDashboard },
  { label: "Meetings", href: "/meetings", icon: CalendarDays },
  { label: "Documents", href: "/documents", icon: FileText },
  { label: "Resolutions", href: "/resolutions", icon: Gavel },
  { label: "Board Members", href: "/board-members", icon: Users },
];

/** Desktop only, for roles admin and founder. */
export const companySettingsNavItem: NavItem = { label: "Company Settings", href: "/company-settings", icon: Building2 };

/** Desktop only, for confirmed platform admins; it leads to /admin-settings (spec §2). */
export const platformSettingsNavItem: NavItem = { label: "Platform Settings", href: "/admin-settings", icon: ShieldCheck };

/** Personal settings: always present, at the bottom of the sidebar and in the mobile menu. */
export const settingsNavItem: NavItem = { label: "Settings", href: "/settings", icon: Settings };

/** Whether `href` is the current route: "/" also owns /dashboard, a section owns its sub-paths (/meetings/5). */
export function isActivePath(href: string, location: string): boolean {
  if (href === "/") return location === "/" || location === "/dashboard";
  return location === href || location.startsWith(`${href}/`);
}
