import { queryOptions } from "@tanstack/react-query";
import * as api from "@shared/api/documents";
import type { LibraryDocument } from "@shared/documents";
import { callApi } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { documentKeys } from "@/features/documents/api/document-keys";

/** GET /api/companies/:companyId/documents → the library, newest first (metadata only; a note's text cut short). */
export function getLibrary(companyId: number): Promise<LibraryDocument[]> {
  return callApi(api.listLibrary, { params: { companyId } });
}

export const libraryQueryOptions = (companyId: number) =>
  queryOptions({ queryKey: documentKeys.library(companyId), queryFn: () => getLibrary(companyId) });

/** The active company's library (`enabled: false` waits, e.g. until a picker opens). */
export function useLibrary(options: { enabled?: boolean } = {}) {
  return useActiveCompanyQuery((companyId) => libraryQueryOptions(companyId), options);
}
