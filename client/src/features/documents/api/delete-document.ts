import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/documents";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { refreshLibrary } from "@/features/documents/api/refresh-library";

/** DELETE /api/documents/:id → 204. */
export function deleteDocument(id: number): Promise<void> {
  return callApi(api.deleteDocument, { params: { id } });
}

/** Deletes a document; the library, recent documents and the documents list refresh. */
export function useDeleteDocument() {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return useMutation({
    mutationFn: deleteDocument,
    onSuccess: () => refreshLibrary(queryClient, companyId),
  });
}
