import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MeetingUpdateInput } from "@shared/agenda";
import * as api from "@shared/api/meeting-record";
import type { DocumentObject } from "@shared/documents";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { markComplianceStale } from "@/lib/compliance-keys";
import { meetingKeys } from "@/features/meetings/api/meeting-keys";

/** PATCH /api/meetings/:id: confirm, cancel or reschedule; answers the meeting as a document. */
export function updateMeeting(meetingId: number, body: MeetingUpdateInput): Promise<DocumentObject> {
  return callApi(api.updateMeeting, { params: { id: meetingId }, body });
}

/**
 * Confirms, cancels or reschedules a meeting. Afterwards the company's upcoming meetings, its compliance
 * verdicts (read from its meetings) and the agenda's start times are asked for again; `onChanged` hands the
 * answer to the page, which holds the meeting's document and the meetings list (the documents feature's).
 */
export function useUpdateMeeting(meetingId: number, onChanged?: (meeting: DocumentObject) => Promise<unknown> | void) {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return useMutation({
    mutationFn: (body: MeetingUpdateInput) => updateMeeting(meetingId, body),
    onSuccess: (meeting) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: meetingKeys.upcoming(meeting.companyId), exact: true }),
        queryClient.invalidateQueries({ queryKey: meetingKeys.agenda(companyId, meetingId), exact: true }),
        markComplianceStale(queryClient, meeting.companyId),
        onChanged?.(meeting),
      ]),
  });
}
