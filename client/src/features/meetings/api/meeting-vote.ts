import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/meeting-record";
import type { MeetingVoteInput } from "@shared/meeting-record";
import type { ResolutionDetails } from "@shared/resolutions";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { meetingKeys } from "@/features/meetings/api/meeting-keys";

/**
 * POST /api/resolutions/:id/meeting-vote: a show of hands that decides the resolution at once. The agenda is asked
 * for again, and `onDecided` lets the page refresh what the resolutions feature holds.
 */
export function useRecordMeetingVote(resolutionId: number, meetingId: number, onDecided?: (resolution: ResolutionDetails) => unknown) {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return useMutation({
    mutationFn: (body: MeetingVoteInput) => callApi(api.recordMeetingVote, { params: { id: resolutionId }, body }),
    onSuccess: (resolution) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: meetingKeys.agenda(companyId, meetingId), exact: true }),
        onDecided?.(resolution),
      ]),
  });
}
