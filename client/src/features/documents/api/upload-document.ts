import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/documents";
import type { DocumentObject } from "@shared/documents";
import { apiUrl } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { refreshLibrary } from "@/features/documents/api/refresh-library";
import { sendMultipart } from "@/features/documents/api/send-multipart";

export interface UploadDocumentInput {
  name: string;
  category: string;
  description?: string;
  file: File;
  /** Told the share of the file sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void;
}

/**
 * POST /api/documents as multipart/form-data: the text fields first, then the file, with its progress.
 */
export function uploadDocument({ name, category, description, file, onProgress }: UploadDocumentInput): Promise<DocumentObject> {
  const form = new FormData();
  form.append("name", name);
  form.append("category", category);
  if (description) form.append("description", description);
  form.append("file", file, file.name);
  return sendMultipart(api.createDocument.method, apiUrl(api.createDocument), form, onProgress);
}

/** Uploads a document; the library, recent documents and the documents list refresh. */
export function useUploadDocument() {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return useMutation({
    mutationFn: uploadDocument,
    onSuccess: () => refreshLibrary(queryClient, companyId),
  });
}
