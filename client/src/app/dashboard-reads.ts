import { complianceQueryOptions } from "@/features/compliance/api/get-compliance";
import { recentDocumentsQueryOptions } from "@/features/documents/api/get-recent-documents";
import { upcomingMeetingsQueryOptions } from "@/features/meetings/api/get-upcoming-meetings";
import { pendingResolutionsQueryOptions } from "@/features/resolutions/api/get-pending-resolutions";

/**
 * The dashboard's first reads for a company: the panels a phone shows first ask for exactly these (same keys and
 * fetchers), and the dashboard waits for them before it shows its panels.
 */
export const dashboardFirstReads = (companyId: number) =>
  [
    complianceQueryOptions(companyId),
    pendingResolutionsQueryOptions(companyId),
    upcomingMeetingsQueryOptions(companyId),
    recentDocumentsQueryOptions(companyId),
  ] as const;
