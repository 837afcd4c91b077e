import { lazy, type ComponentType } from "react";

/**
 * Code-split pages: each route file is its own chunk, loaded on first visit. Sign-in is the
 * exception (see router.tsx): it ships with the main bundle and paints without a second round trip.
 */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

export const RegisterPage = lazyPage(() => import("@/app/routes/register"), "RegisterPage");
export const NotFoundPage = lazyPage(() => import("@/app/routes/not-found"), "NotFoundPage");
const DashboardPage = lazyPage(() => import("@/app/routes/dashboard"), "DashboardPage");
const MeetingsPage = lazyPage(() => import("@/app/routes/meetings"), "MeetingsPage");
const MeetingDetailPage = lazyPage(() => import("@/app/routes/meeting-detail"), "MeetingDetailPage");
const DocumentsPage = lazyPage(() => import("@/app/routes/documents"), "DocumentsPage");
const ResolutionsPage = lazyPage(() => import("@/app/routes/resolutions"), "ResolutionsPage");
const BoardMembersPage = lazyPage(() => import("@/app/routes/board-members"), "BoardMembersPage");
const CompanySettingsPage = lazyPage(() => import("@/app/routes/company-settings"), "CompanySettingsPage");
const SettingsPage = lazyPage(() => import("@/app/routes/settings"), "SettingsPage");
const CompanyOnboardingPage = lazyPage(() => import("@/app/routes/company-onboarding"), "CompanyOnboardingPage");
const AdminPortalPage = lazyPage(() => import("@/app/routes/admin-portal"), "AdminPortalPage");
const AdminSettingsPage = lazyPage(() => import("@/app/routes/admin-settings"), "AdminSettingsPage");
const PlatformSettingsPage = lazyPage(() => import("@/app/routes/platform-settings"), "PlatformSettingsPage");

interface SignedInRoute {
  path: string;
  page: ComponentType;
  /** A user without a company is sent to /company-onboarding instead. */
  needsCompany?: boolean;
}

/** The spec's route table for signed-in users (§2). /dashboard is an alias of / (CONTRACT). */
export const signedInRoutes: SignedInRoute[] = [
  { path: "/", page: DashboardPage, needsCompany: true },
  { path: "/dashboard", page: DashboardPage, needsCompany: true },
  { path: "/meetings", page: MeetingsPage },
  { path: "/meetings/:id", page: MeetingDetailPage },
  { path: "/documents", page: DocumentsPage },
  { path: "/resolutions", page: ResolutionsPage },
  { path: "/resolutions/:id", page: ResolutionsPage },
  { path: "/board-members", page: BoardMembersPage },
  { path: "/company-settings", page: CompanySettingsPage },
  { path: "/settings", page: SettingsPage },
  { path: "/company-onboarding", page: CompanyOnboardingPage },
  { path: "/admin-portal", page: AdminPortalPage },
  { path: "/admin-settings", page: AdminSettingsPage },
  { path: "/platform-settings", page: PlatformSettingsPage },
];
