import { queryOptions } from "@tanstack/react-query";
import * as api from "@shared/api/documents";
import type { DocumentCategory, DocumentListItem } from "@shared/documents";
import { callApi } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { documentKeys } from "@/features/documents/api/document-keys";

/**
 * GET /api/documents → the active company's documents; with a category, only that category's (the server picks them).
 * A note's text comes cut short (`truncated`); `useDocument` reads it whole.
 */
export function getDocuments(category?: DocumentCategory): Promise<DocumentListItem[]> {
  return callApi(api.listDocuments, { query: { category } });
}

export const documentsQueryOptions = (companyId: number, category?: DocumentCategory) =>
  queryOptions({ queryKey: documentKeys.list(companyId, category), queryFn: () => getDocuments(category) });

/**
 * The active company's documents, or only those of `category` (the meetings page asks for meetings alone, never
 * for the whole library). `select` derives what a screen shows from the cached list; give it a function defined
 * once, outside the component, so the result is recomputed only when the list changes.
 */
export function useDocuments<T = DocumentListItem[]>({
  category,
  select,
}: { category?: DocumentCategory; select?: (documents: DocumentListItem[]) => T } = {}) {
  return useActiveCompanyQuery((companyId) => ({ ...documentsQueryOptions(companyId, category), select }));
}
