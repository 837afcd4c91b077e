import type { QueryClient } from "@tanstack/react-query";
import { markComplianceStale } from "@/lib/compliance-keys";
import { documentKeys } from "@/features/documents/api/document-keys";

/**
 * After an upload or a delete: the company's library, recent documents and documents lists are stale, and so are
 * its compliance verdicts (financial statements, legal documents and minutes are read from the library).
 */
export async function refreshLibrary(queryClient: QueryClient, companyId: number | null): Promise<void> {
  await Promise.all([
    ...[documentKeys.library(companyId), documentKeys.recent(companyId)].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey, exact: true }),
    ),
    // The whole list and each category's.
    queryClient.invalidateQueries({ queryKey: documentKeys.list(companyId) }),
    markComplianceStale(queryClient, companyId),
  ]);
}
