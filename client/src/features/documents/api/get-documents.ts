import { queryOptions } from "@tanstack/react-query";
import * as api from "@shared/api/documents";
import type { DocumentObject } from "@shared/documents";
import { callApi } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { documentKeys } from "@/features/documents/api/document-keys";

/** GET /api/documents → the active company's documents. */
export function getDocuments(): Promise<DocumentObject[]> {
  return callApi(api.listDocuments);
}

export const documentsQueryOptions = (companyId: number) => queryOptions({ queryKey: documentKeys.list(companyId), queryFn: getDocuments });

/**
 * The active company's documents. `select` derives what a screen shows from the one cached list (the
 * meetings page keeps only meetings); give it a function defined once, outside the component, so the
 * result is recomputed only when the list changes.
 */
export function useDocuments<T = DocumentObject[]>(select?: (documents: DocumentObject[]) => T) {
  return useActiveCompanyQuery((companyId) => ({ ...documentsQueryOptions(companyId), select }));
}
