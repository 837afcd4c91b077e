import { Building2, CalendarDays, FileText, Gavel, LayoutDashboard, Settings, ShieldCheck, Users, type LucideIcon } from "lucide-react";
import { can, canAdministerPlatform } from "@shared/permissions";
import type { CompanyRole } from "@shared/roles";
import { pathParams } from "@/app/page-paths";
import { lazyPage, type LazyPage, type SignedInPath } from "@/app/signed-out-routes";

/**
 * Code-split pages: each route file is its own chunk, loaded on first visit. This table travels with
 * the signed-in shell, not with sign-in (the signed-out router reads only the addresses, from
 * signed-out-routes.ts), so it holds names, icons and rules, never a page's code.
 */
const DashboardPage = lazyPage(() => import("@/app/routes/dashboard"), "DashboardPage");
const MeetingsPage = lazyPage(() => import("@/app/routes/meetings"), "MeetingsPage");
const MeetingDetailPage = lazyPage(() => import("@/app/routes/meeting-detail"), "MeetingDetailPage");
const DocumentsPage = lazyPage(() => import("@/app/routes/documents"), "DocumentsPage");
const DocumentReaderPage = lazyPage(() => import("@/app/routes/document-reader"), "DocumentReaderPage");
const BoardPackReaderPage = lazyPage(() => import("@/app/routes/board-pack-reader"), "BoardPackReaderPage");
const DocumentComparePage = lazyPage(() => import("@/app/routes/document-compare"), "DocumentComparePage");
const ResolutionsPage = lazyPage(() => import("@/app/routes/resolutions"), "ResolutionsPage");
const BoardMembersPage = lazyPage(() => import("@/app/routes/board-members"), "BoardMembersPage");
const SearchPage = lazyPage(() => import("@/app/routes/search"), "SearchPage");
const CompanySettingsPage = lazyPage(() => import("@/app/routes/company-settings"), "CompanySettingsPage");
const SettingsPage = lazyPage(() => import("@/app/routes/settings"), "SettingsPage");
const CompanyOnboardingPage = lazyPage(() => import("@/app/routes/company-onboarding"), "CompanyOnboardingPage");
const AdminPortalPage = lazyPage(() => import("@/app/routes/admin-portal"), "AdminPortalPage");
const AdminSettingsPage = lazyPage(() => import("@/app/routes/admin-settings"), "AdminSettingsPage");
const PlatformSettingsPage = lazyPage(() => import("@/app/routes/platform-settings"), "PlatformSettingsPage");

/** Who is looking at the navigation: some entries are only for some people. */
export interface Viewer {
  role: CompanyRole | null;
  /** As the server confirmed it, never as the user object claims it. */
  isPlatformAdmin: boolean;
}

/** A route's entry in the navigation. */
export interface NavEntry {
  label: string;
  icon: LucideIcon;
  /**
   * main: the sidebar's list and the phone menu. admin: the sidebar's list only, after the main entries.
   * account: the foot of the sidebar (beside Logout) and the end of the phone menu.
   */
  section: "main" | "admin" | "account";
  /** Who sees it; everyone signed in when absent. */
  shownTo?: (viewer: Viewer) => boolean;
}

export interface SignedInRoute {
  /** Listed in signedInPaths too, in the same order (router.test.tsx checks it). */
  path: SignedInPath;
  page: LazyPage;
  /** A user without a company is sent to /company-onboarding instead. */
  needsCompany?: boolean;
  /** The header's title on this route; a route without one shows the product name. */
  title?: string;
  /** The route's navigation entry, in this table's order; most routes have none. */
  nav?: NavEntry;
}

/**
 * Every page a signed-in user can open, with its header title and navigation entry: adding a page is
 * one line here and its file in routes/. /dashboard is another address of /.
 */
export const signedInRoutes: SignedInRoute[] = [
  {
    path: "/",
    page: DashboardPage,
    needsCompany: true,
    title: "Dashboard",
    nav: { label: "Dashboard", icon: LayoutDashboard, section: "main" },
  },
  { path: "/dashboard", page: DashboardPage, needsCompany: true, title: "Dashboard" },
  { path: "/meetings", page: MeetingsPage, title: "Meetings", nav: { label: "Meetings", icon: CalendarDays, section: "main" } },
  { path: "/meetings/:id", page: MeetingDetailPage, title: "Meetings" },
  { path: "/meetings/:id/pack", page: BoardPackReaderPage, title: "Meetings" },
  { path: "/documents", page: DocumentsPage, title: "Documents", nav: { label: "Documents", icon: FileText, section: "main" } },
  { path: "/documents/:id/read", page: DocumentReaderPage, title: "Documents" },
  { path: "/documents/:id/compare", page: DocumentComparePage, title: "Documents" },
  { path: "/resolutions", page: ResolutionsPage, title: "Resolutions", nav: { label: "Resolutions", icon: Gavel, section: "main" } },
  { path: "/resolutions/:id", page: ResolutionsPage, title: "Resolutions" },
  { path: "/board-members", page: BoardMembersPage, title: "Board Members", nav: { label: "Board Members", icon: Users, section: "main" } },
  { path: "/search", page: SearchPage, title: "Search" },
  {
    path: "/company-settings",
    page: CompanySettingsPage,
    nav: { label: "Company Settings", icon: Building2, section: "admin", shownTo: ({ role }) => can(role, "editCompany") },
  },
  { path: "/settings", page: SettingsPage, title: "Settings", nav: { label: "Settings", icon: Settings, section: "account" } },
  { path: "/company-onboarding", page: CompanyOnboardingPage },
  { path: "/admin-portal", page: AdminPortalPage },
  // The sidebar's "Platform Settings" leads here, to the admin settings.
  {
    path: "/admin-settings",
    page: AdminSettingsPage,
    nav: { label: "Platform Settings", icon: ShieldCheck, section: "admin", shownTo: canAdministerPlatform },
  },
  { path: "/platform-settings", page: PlatformSettingsPage },
];

/** Starts downloading the page at `address` (/meetings/12 is the page of /meetings/:id). */
export function preloadPage(address: string): void {
  signedInRoutes.find((route) => pathParams(route.path, address) !== null)?.page.preload();
}
