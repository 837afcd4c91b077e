import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateDocumentInput, DocumentObject } from "@shared/documents";
import { markComplianceStale } from "@/lib/compliance-keys";
import { meetingKeys } from "@/features/meetings/api/meeting-keys";

/**
 * Schedules a meeting. A meeting is created as a document (category 'Meeting'), and the documents wire
 * belongs to the documents feature: the page hands its create call in as `createDocument` (it refreshes
 * the document list). Once the meeting exists, the company's upcoming meetings refresh too, and so do its
 * compliance verdicts (the quarterly meeting, the AGM and the notice period are read from its meetings).
 */
export function useScheduleMeeting(createDocument: (body: CreateDocumentInput) => Promise<DocumentObject>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDocument,
    onSuccess: (document) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: meetingKeys.upcoming(document.companyId), exact: true }),
        markComplianceStale(queryClient, document.companyId),
      ]),
  });
}
