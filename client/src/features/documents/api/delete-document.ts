import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { refreshLibrary } from "@/features/documents/api/refresh-library";

/** DELETE /api/documents/:id → 204. */
export async function deleteDocument(id: number): Promise<void> {
  await apiRequest("DELETE", `/api/documents/${id}`);
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
