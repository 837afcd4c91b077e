import type { QueryClient } from "@tanstack/react-query";
import { documentKeys } from "@/features/documents/api/document-keys";

/** After an upload or a delete: the company's library, recent documents and documents list are stale. */
export async function refreshLibrary(queryClient: QueryClient, companyId: number | null): Promise<void> {
  await Promise.all(
    [documentKeys.library(companyId), documentKeys.recent(companyId), documentKeys.list(companyId)].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey, exact: true }),
    ),
  );
}
