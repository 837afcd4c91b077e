import { queryOptions } from "@tanstack/react-query";
import * as api from "@shared/api/documents";
import type { RecentDocument } from "@shared/documents";
import { callApi } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { documentKeys } from "@/features/documents/api/document-keys";

/** GET /api/companies/:companyId/documents/recent → the newest five files. */
export function getRecentDocuments(companyId: number): Promise<RecentDocument[]> {
  return callApi(api.recentDocuments, { params: { companyId } });
}

export const recentDocumentsQueryOptions = (companyId: number) =>
  queryOptions({ queryKey: documentKeys.recent(companyId), queryFn: () => getRecentDocuments(companyId) });

/** The active company's recent documents (the dashboard). */
export function useRecentDocuments() {
  return useActiveCompanyQuery((companyId) => recentDocumentsQueryOptions(companyId));
}
