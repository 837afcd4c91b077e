import type { LucideIcon } from "lucide-react";
import { signedInRoutes, type NavEntry, type Viewer } from "@/app/route-table";

export interface NavItem {
  label: string;
  href: string;
  icon: LucideIcon;
}

interface PlacedNavItem extends NavItem {
  section: NavEntry["section"];
  shownTo?: NavEntry["shownTo"];
}

/** The navigation entries of the route table, in its order. */
const navItems: PlacedNavItem[] = signedInRoutes.flatMap(({ path, nav }) => (nav ? [{ ...nav, href: path }] : []));

function itemsIn(sections: readonly NavEntry["section"][], viewer: Viewer): NavItem[] {
  return navItems
    .filter((item) => sections.includes(item.section) && (item.shownTo?.(viewer) ?? true))
    .map(({ label, href, icon }) => ({ label, href, icon }));
}

/** The desktop sidebar's list: the main entries, then the ones only some people see. */
export const sidebarNavItems = (viewer: Viewer) => itemsIn(["main", "admin"], viewer);

/** The foot of the sidebar, above Logout (personal settings). */
export const accountNavItems = (viewer: Viewer) => itemsIn(["account"], viewer);

/** The phone menu lists only the main entries and the account ones, then Logout. */
export const mobileNavItems = (viewer: Viewer) => itemsIn(["main", "account"], viewer);

/** Whether `href` is the current route: "/" also owns /dashboard, a section owns its sub-paths (/meetings/5). */
export function isActivePath(href: string, location: string): boolean {
  if (href === "/") return location === "/" || location === "/dashboard";
  return location === href || location.startsWith(`${href}/`);
}
