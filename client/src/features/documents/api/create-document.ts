import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/documents";
import type { CreateDocumentInput, DocumentObject } from "@shared/documents";
import { callApi } from "@/lib/api-client";
import { documentKeys } from "@/features/documents/api/document-keys";

/** POST /api/documents → the new document (with its id). A meeting is created this way too (category 'Meeting'). */
export function createDocument(body: CreateDocumentInput): Promise<DocumentObject> {
  return callApi(api.createDocument, { body });
}

/** Creates a document: it goes into the detail cache, and its company's document lists (whole or by category, only those) refresh. */
export function useCreateDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDocument,
    onSuccess: async (document) => {
      queryClient.setQueryData(documentKeys.detail(document.companyId, document.id), document);
      await queryClient.invalidateQueries({ queryKey: documentKeys.list(document.companyId) });
    },
  });
}
