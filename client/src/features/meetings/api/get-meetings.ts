import { queryOptions, useQuery } from "@tanstack/react-query";
import type { DocumentObject } from "@shared/documents";
import { apiJson } from "@/lib/api-client";
import { meetingKeys } from "@/features/meetings/api/meeting-keys";
import { isMeetingDocument, toMeetingSummary, type MeetingSummary } from "@/features/meetings/lib/listed-meeting";

/** GET /api/documents → the active company's documents. */
export function getDocuments(): Promise<DocumentObject[]> {
  return apiJson<DocumentObject[]>("GET", "/api/documents");
}

export const documentsQueryOptions = (companyId: number | null) =>
  queryOptions({ queryKey: meetingKeys.documents(companyId), queryFn: getDocuments, enabled: companyId != null });

function meetingsOf(documents: DocumentObject[]): MeetingSummary[] {
  return documents.filter(isMeetingDocument).map((document) => toMeetingSummary(document));
}

/** The company's meetings: the documents list filtered in the browser to category 'Meeting' (spec §7). */
export function useMeetings(companyId: number | null) {
  return useQuery({ ...documentsQueryOptions(companyId), select: meetingsOf });
}
