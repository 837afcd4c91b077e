import type { DocumentObject } from "@shared/documents";
import { ApiError } from "@/lib/api-client";
import { getAuthToken } from "@/lib/auth-token";

/**
 * Sends a multipart form (its text fields first, then the file, which the server checks and stores as it arrives)
 * with XMLHttpRequest, not fetch, so the bytes' progress can be shown. Resolves with the document the server answers.
 */
export function sendMultipart(
  method: string,
  url: string,
  form: FormData,
  onProgress?: (fraction: number) => void,
): Promise<DocumentObject> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
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
