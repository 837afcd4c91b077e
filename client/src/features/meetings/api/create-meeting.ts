import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateDocumentInput, DocumentObject } from "@shared/documents";
import { apiJson } from "@/lib/api-client";
import { meetingKeys } from "@/features/meetings/api/meeting-keys";

/** POST /api/documents with category 'Meeting' → the new document (with its id). */
export function createMeeting(body: CreateDocumentInput): Promise<DocumentObject> {
  return apiJson<DocumentObject>("POST", "/api/documents", body);
}

/** Schedules a meeting; the new document goes into the detail cache and the company's lists refresh. */
export function useCreateMeeting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMeeting,
    onSuccess: async (document) => {
      queryClient.setQueryData(meetingKeys.document(document.companyId, document.id), document);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: meetingKeys.documents(document.companyId) }),
        queryClient.invalidateQueries({ queryKey: meetingKeys.upcoming(document.companyId) }),
      ]);
    },
  });
}
