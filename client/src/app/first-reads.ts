import type { FetchQueryOptions, QueryClient, QueryKey } from "@tanstack/react-query";
import type { PathParamNames } from "@shared/api/endpoint";
import { meetingCategory } from "@shared/meeting-model";
import { can } from "@shared/permissions";
import type { CompanyRole } from "@shared/roles";
import { dashboardFirstReads } from "@/app/dashboard-reads";
import { HOME_PATHS } from "@/app/home-paths";
import { pathParams } from "@/app/page-paths";
import { companiesQueryOptions } from "@/features/companies/api/get-companies";
import { companySettingsQueryOptions } from "@/features/companies/api/get-company-settings";
import { membersQueryOptions } from "@/features/companies/api/get-members";
import { documentQueryOptions } from "@/features/documents/api/get-document";
import { documentsQueryOptions } from "@/features/documents/api/get-documents";
import { libraryQueryOptions } from "@/features/documents/api/get-library";
import { agendaQueryOptions } from "@/features/meetings/api/get-agenda";
import { quorumQueryOptions } from "@/features/resolutions/api/get-quorum";
import { resolutionQueryOptions } from "@/features/resolutions/api/get-resolution";
import { resolutionsQueryOptions } from "@/features/resolutions/api/get-resolutions";

/** Who opens a page, and at which address: what its first reads are built from. */
export interface PageOpening<Param extends string = string> {
  companyId: number;
  role: CompanyRole | null;
  params: Record<Param, number>;
}

/** One read, asked for through the query client (so the page's own query, same key, finds it there or on its way). */
export type FirstRead = (queryClient: QueryClient) => Promise<void>;

/** A read with its own data type, which a list of query options would lose. */
function read<Data, Key extends QueryKey>(options: FetchQueryOptions<Data, Error, Data, Key>): FirstRead {
  return (queryClient) => queryClient.prefetchQuery(options);
}

interface PageReads {
  paths: readonly string[];
  reads: (opening: PageOpening) => FirstRead[];
}

/** A page's entry; `reads` is told the parameters its paths name, as numbers. */
function page<const Path extends string>(
  paths: readonly Path[],
  reads: (opening: PageOpening<PathParamNames<Path>>) => FirstRead[],
): PageReads {
  // The table's matcher hands each page every parameter its path names (page-paths.ts).
  return { paths, reads: reads as PageReads["reads"] };
}

/**
 * Each signed-in page's first reads: what it asks for as it first renders (and, where that answer only gates the rest,
 * what it asks for once it has it: a meeting's agenda, a routed resolution's details), with the same query options
 * (keys and fetchers) as the page's own components. Started as soon as the current user (so the active company) is
 * known, rather than once the page's code has arrived and rendered (app/page-data.ts). The build's preload script asks
 * for the same addresses before the app has even arrived (app/preloaded-pages.ts; first-reads.test.ts proves
 * they agree). It ships with the entry: it names query options, never a page's code.
 */
export const firstReadsOfPages: readonly PageReads[] = [
  page(HOME_PATHS, ({ companyId }) => {
    const [compliance, pending, upcoming, recent] = dashboardFirstReads(companyId);
    return [read(compliance), read(pending), read(upcoming), read(recent)];
  }),
  // Meetings are documents on the wire: the list of the Meeting category.
  page(["/meetings"], ({ companyId }) => [read(documentsQueryOptions(companyId, meetingCategory))]),
  // The meeting's document decides what the page shows; its agenda is the page's main content once it has it.
  page(["/meetings/:id"], ({ companyId, params: { id } }) => [
    read(documentQueryOptions(companyId, id)),
    read(agendaQueryOptions(companyId, id)),
    read(membersQueryOptions(companyId)),
    read(libraryQueryOptions(companyId)),
    read(resolutionsQueryOptions(companyId)),
    read(companySettingsQueryOptions(companyId)),
  ]),
  page(["/documents"], ({ companyId }) => [read(libraryQueryOptions(companyId))]),
  page(["/resolutions"], ({ companyId }) => [read(resolutionsQueryOptions(companyId))]),
  // Whichever dialog the routed resolution opens (the vote or its details) reads its details.
  page(["/resolutions/:id"], ({ companyId, params: { id } }) => [
    read(resolutionsQueryOptions(companyId)),
    read(resolutionQueryOptions(companyId, id)),
  ]),
  // The invitations its founders and admins see below the members are left to the page: their module (with everything
  // else about invitations) would add a quarter again to what this table adds to the entry.
  page(["/board-members"], ({ companyId }) => [read(membersQueryOptions(companyId))]),
  // Anyone else is sent away, having read nothing.
  page(["/company-settings"], ({ companyId, role }) =>
    can(role, "editCompany") ? [read(companySettingsQueryOptions(companyId)), read(quorumQueryOptions(companyId))] : [],
  ),
  // The profile tab's Leave company card.
  page(["/settings"], ({ companyId }) => [read(companiesQueryOptions()), read(membersQueryOptions(companyId))]),
];

/**
 * The first reads of the page at `address`, to be built once its user is known; undefined when no page of the table is
 * there.
 */
export function firstReadsAt(address: string): ((opening: Omit<PageOpening, "params">) => FirstRead[]) | undefined {
  for (const { paths, reads } of firstReadsOfPages) {
    for (const path of paths) {
      const params = pathParams(path, address);
      if (params) return (opening) => reads({ ...opening, params });
    }
  }
  return undefined;
}
