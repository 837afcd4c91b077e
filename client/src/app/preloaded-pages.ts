// The signed-in pages the build's preload script prepares at their addresses (scripts/build/signed-in-preload.ts): each
// page's route module, whose chunk it preloads, and the addresses of its first reads, which it asks for once the current
// user's answer names the active company. They are the reads of the app's own table (first-reads.ts), which takes these
// answers instead of asking again; first-reads.test.ts proves both ask for the same addresses, role by role. The build
// reads this module (vite.config.ts), the app does not: it names the shared declarations by relative paths, which the
// build resolves without the app's aliases.
import { HOME_PATHS } from "./home-paths";
import * as companiesApi from "../../../shared/api/companies";
import * as complianceApi from "../../../shared/api/compliance";
import * as documentsApi from "../../../shared/api/documents";
import { pathOf } from "../../../shared/api/endpoint";
import * as meetingsApi from "../../../shared/api/meetings";
import * as resolutionsApi from "../../../shared/api/resolutions";
import { meetingCategory } from "../../../shared/meeting-model";
import type { Permission } from "../../../shared/permissions";

/**
 * A first read: its address, with `:companyId` (the active company's) and the page path's own parameters (`:id`) in
 * it; `permission` when only the roles that hold it read it.
 */
export interface PreloadedRead {
  address: string;
  permission?: Permission;
}

export interface PreloadedPageSource {
  /** The page's paths, as the route table names them (`/meetings/:id`). */
  paths: readonly string[];
  /** Its route module, from the repository's root. */
  module: string;
  reads: readonly PreloadedRead[];
}

const routes = (file: string) => `client/src/app/routes/${file}`;
const reads = (...endpoints: { path: string }[]): PreloadedRead[] => endpoints.map(({ path }) => ({ address: path }));

export const preloadedPages: readonly PreloadedPageSource[] = [
  {
    paths: HOME_PATHS,
    module: routes("dashboard.tsx"),
    reads: reads(
      complianceApi.getCompliance,
      resolutionsApi.pendingResolutions,
      meetingsApi.upcomingMeetings,
      documentsApi.recentDocuments,
    ),
  },
  {
    paths: ["/meetings"],
    module: routes("meetings.tsx"),
    reads: [{ address: pathOf(documentsApi.listDocuments, undefined, { category: meetingCategory }) }],
  },
  {
    paths: ["/meetings/:id"],
    module: routes("meeting-detail.tsx"),
    reads: reads(
      documentsApi.getDocument,
      meetingsApi.getAgenda,
      companiesApi.listMembers,
      documentsApi.listLibrary,
      resolutionsApi.listResolutions,
      companiesApi.getCompanySettings,
    ),
  },
  { paths: ["/documents"], module: routes("documents.tsx"), reads: reads(documentsApi.listLibrary) },
  { paths: ["/resolutions"], module: routes("resolutions.tsx"), reads: reads(resolutionsApi.listResolutions) },
  {
    paths: ["/resolutions/:id"],
    module: routes("resolutions.tsx"),
    reads: reads(resolutionsApi.listResolutions, resolutionsApi.getResolution),
  },
  { paths: ["/board-members"], module: routes("board-members.tsx"), reads: reads(companiesApi.listMembers) },
  {
    paths: ["/company-settings"],
    module: routes("company-settings.tsx"),
    reads: [
      { address: companiesApi.getCompanySettings.path, permission: "editCompany" },
      { address: resolutionsApi.getQuorum.path, permission: "editCompany" },
    ],
  },
  { paths: ["/settings"], module: routes("settings.tsx"), reads: reads(companiesApi.listCompanies, companiesApi.listMembers) },
];
