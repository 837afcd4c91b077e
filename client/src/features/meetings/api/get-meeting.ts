import { queryOptions, useQuery } from "@tanstack/react-query";
import type { DocumentObject } from "@shared/documents";
import { apiJson } from "@/lib/api-client";
import { meetingKeys } from "@/features/meetings/api/meeting-keys";

/** GET /api/documents/:id → one document (the meeting detail). */
export function getDocument(id: number): Promise<DocumentObject> {
  return apiJson<DocumentObject>("GET", `/api/documents/${id}`);
}

export const documentQueryOptions = (companyId: number | null, id: number) =>
  queryOptions({ queryKey: meetingKeys.document(companyId, id), queryFn: () => getDocument(id) });

/** One document of the active company `companyId` (keyed by it, so a company switch refetches it). */
export function useMeetingDocument(companyId: number | null, id: number | null) {
  return useQuery({ ...documentQueryOptions(companyId, id ?? 0), enabled: id != null });
}
