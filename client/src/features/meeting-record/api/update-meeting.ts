import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MeetingUpdateInput } from "@shared/agenda";
import * as api from "@shared/api/meeting-record";
import type { DocumentObject } from "@shared/documents";
import { callApi } from "@/lib/api-client";
import { markComplianceStale } from "@/lib/compliance-keys";

/** PATCH /api/meetings/:id: confirm, cancel or reschedule; answers the meeting as a document. */
export function updateMeeting(meetingId: number, body: MeetingUpdateInput): Promise<DocumentObject> {
  return callApi(api.updateMeeting, { params: { id: meetingId }, body });
}

/**
 * Confirms, cancels or reschedules a meeting. Afterwards the company's compliance verdicts (read from its meetings)
 * are asked for again; `onChanged` hands the answer to the page, which refreshes what shows the meeting elsewhere
 * (its document and the meetings list, the upcoming meetings, the agenda's start times).
 */
export function useUpdateMeeting(meetingId: number, onChanged?: (meeting: DocumentObject) => Promise<unknown> | void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MeetingUpdateInput) => updateMeeting(meetingId, body),
    onSuccess: (meeting) => Promise.all([markComplianceStale(queryClient, meeting.companyId), onChanged?.(meeting)]),
  });
}
