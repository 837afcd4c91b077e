import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/documents";
import type { DocumentObject } from "@shared/documents";
import { ApiError, apiUrl } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { getAuthToken } from "@/lib/auth-token";
import { refreshLibrary } from "@/features/documents/api/refresh-library";

export interface UploadDocumentInput {
  name: string;
  category: string;
  description?: string;
  file: File;
  /** Told the share of the file sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void;
}

/**
 * POST /api/documents as multipart/form-data: the text fields first, then the file, which the server checks
 * and stores as it arrives. XMLHttpRequest (not fetch) so the bytes' progress can be shown.
 */
export function uploadDocument({ name, category, description, file, onProgress }: UploadDocumentInput): Promise<DocumentObject> {
  const form = new FormData();
  form.append("name", name);
  form.append("category", category);
  if (description) form.append("description", description);
  form.append("file", file, file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(api.createDocument.method, apiUrl(api.createDocument));
    xhr.withCredentials = true;
    const token = getAuthToken();
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1);
        resolve(JSON.parse(xhr.responseText) as DocumentObject);
      } else {
        reject(new ApiError(xhr.status, xhr.statusText, xhr.responseText));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, "Network error", JSON.stringify({ message: "The upload could not reach the server" })));
    xhr.send(form);
  });
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
