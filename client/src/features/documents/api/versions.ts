import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/documents";
import type { DocumentObject } from "@shared/documents";
import type { Comparison, DocumentVersion } from "@shared/paper-versions";
import { apiUrl, callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { documentKeys } from "@/features/documents/api/document-keys";
import { refreshLibrary } from "@/features/documents/api/refresh-library";
import { sendMultipart } from "@/features/documents/api/send-multipart";

/** One version's file: a download, or (`inline`) shown in the browser when its type can be. */
export const versionDownloadUrl = (id: number, version: number, inline = false) =>
  apiUrl(api.downloadVersion, { params: { id, version }, query: { inline: inline ? 1 : undefined } });

/** Where the in-app reader opens a paper (at one version, when given). */
export const readerHref = (id: number, version?: number) => `/documents/${id}/read${version ? `?version=${version}` : ""}`;

/** Every version of a paper, newest first (`enabled: false` waits until the history opens). */
export function useVersions(id: number, { enabled = true }: { enabled?: boolean } = {}) {
  const companyId = useActiveCompany();
  return useQuery({
    queryKey: documentKeys.versions(companyId, id),
    queryFn: (): Promise<DocumentVersion[]> => callApi(api.listVersions, { params: { id } }),
    enabled,
  });
}

/** What changed between two versions; nothing is asked for until both are known and differ. */
export function useComparison(id: number, from: number | null, to: number | null) {
  const companyId = useActiveCompany();
  const ready = from != null && to != null && from !== to;
  return useQuery({
    queryKey: documentKeys.comparison(companyId, id, from ?? 0, to ?? 0),
    queryFn: (): Promise<Comparison> => callApi(api.compareVersions, { params: { id }, query: { from: from!, to: to! } }),
    enabled: ready,
    // A comparison of two kept versions never changes.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export interface ReplaceDocumentInput {
  id: number;
  /** What changed in this version (1–500 characters). */
  note: string;
  file: File;
  /** Told the share of the file sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void;
}

/** POST /api/documents/:id/versions as multipart/form-data: the change note, then the file, with its progress. */
export function replaceDocument({ id, note, file, onProgress }: ReplaceDocumentInput): Promise<DocumentObject> {
  const form = new FormData();
  form.append("note", note);
  form.append("file", file, file.name);
  return sendMultipart(api.replaceDocument.method, apiUrl(api.replaceDocument, { params: { id } }), form, onProgress);
}

/** Replaces a paper's file; the paper, its history and every list that shows it refresh. */
export function useReplaceDocument() {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return useMutation({
    mutationFn: replaceDocument,
    onSuccess: (document) => {
      queryClient.setQueryData(documentKeys.detail(companyId, document.id), document);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: documentKeys.versions(companyId, document.id), exact: true }),
        refreshLibrary(queryClient, companyId),
      ]);
    },
  });
}
