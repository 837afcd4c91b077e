import { queryOptions, useQuery } from "@tanstack/react-query";
import * as api from "@shared/api/documents";
import type { DocumentObject } from "@shared/documents";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { documentKeys } from "@/features/documents/api/document-keys";

/** GET /api/documents/:id → one document. */
export function getDocument(id: number): Promise<DocumentObject> {
  return callApi(api.getDocument, { params: { id } });
}

export const documentQueryOptions = (companyId: number | null, id: number) =>
  queryOptions({ queryKey: documentKeys.detail(companyId, id), queryFn: () => getDocument(id) });

/**
 * One document, keyed under the active company so a company switch fetches it again. It is asked for
 * whenever there is an id, even without an active company: the server decides who may see it.
 */
export function useDocument(id: number | null) {
  const companyId = useActiveCompany();
  return useQuery({ ...documentQueryOptions(companyId, id ?? 0), enabled: id != null });
}
