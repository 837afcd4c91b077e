import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateDocumentInput, DocumentObject } from "@shared/documents";
import { meetingKeys } from "@/features/meetings/api/meeting-keys";

/**
 * Schedules a meeting. A meeting is created as a document (category 'Meeting'), and the documents wire
 * belongs to the documents feature: the page hands its create call in as `createDocument` (it refreshes
 * the document list). Once the meeting exists, the company's upcoming meetings refresh too.
 */
export function useScheduleMeeting(createDocument: (body: CreateDocumentInput) => Promise<DocumentObject>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDocument,
    onSuccess: (document) => queryClient.invalidateQueries({ queryKey: meetingKeys.upcoming(document.companyId), exact: true }),
  });
}
