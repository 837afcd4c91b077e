import { useMutation } from "@tanstack/react-query";
import * as api from "@shared/api/meeting-record";
import type { MeetingVoteInput } from "@shared/meeting-record";
import type { ResolutionDetails } from "@shared/resolutions";
import { callApi } from "@/lib/api-client";

/**
 * POST /api/resolutions/:id/meeting-vote: a show of hands that decides the resolution at once. `onDecided` lets the
 * page refresh what shows the resolution elsewhere (the meeting's agenda, the resolutions).
 */
export function useRecordMeetingVote(resolutionId: number, onDecided?: (resolution: ResolutionDetails) => unknown) {
  return useMutation({
    mutationFn: (body: MeetingVoteInput) => callApi(api.recordMeetingVote, { params: { id: resolutionId }, body }),
    onSuccess: (resolution) => onDecided?.(resolution),
  });
}
