import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/meeting-record";
import type { ApprovalRoute, Minutes, MinutesDraft } from "@shared/meeting-record";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { meetingRecordKeys } from "@/features/meeting-record/api/meeting-record-keys";

/** GET /api/meetings/:id/minutes → where the minutes stand (a draft's text only for those who keep the record). */
export function getMinutes(meetingId: number): Promise<Minutes> {
  return callApi(api.getMinutes, { params: { id: meetingId } });
}

/** A meeting's minutes; asked for only once the meeting has started (`enabled`). */
export function useMinutes(meetingId: number, enabled = true) {
  const companyId = useActiveCompany();
  return useQuery({ queryKey: meetingRecordKeys.minutes(companyId, meetingId), queryFn: () => getMinutes(meetingId), enabled });
}

/** Every change of the minutes answers them whole: the answer replaces the cached minutes. */
function useMinutesMutation<TInput, TAnswer extends Minutes>(meetingId: number, call: (input: TInput) => Promise<TAnswer>) {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return useMutation({
    mutationFn: call,
    onSuccess: (answer) => {
      const { improvement: _improvement, ...minutes } = answer as TAnswer & Partial<Pick<MinutesDraft, "improvement">>;
      queryClient.setQueryData<Minutes>(meetingRecordKeys.minutes(companyId, meetingId), minutes);
    },
  });
}

/** POST /api/meetings/:id/minutes/draft: (re)drafts them from the record; with `improve`, asks the AI to reword them. */
export function useDraftMinutes(meetingId: number) {
  return useMinutesMutation(meetingId, (input: { improve: boolean }) =>
    callApi(api.draftMinutes, { params: { id: meetingId }, body: input.improve ? { improve: true } : {} }),
  );
}

/** PUT /api/meetings/:id/minutes: saves the text of draft or circulated minutes. */
export function useEditMinutes(meetingId: number) {
  return useMinutesMutation(meetingId, (text: string) => callApi(api.editMinutes, { params: { id: meetingId }, body: { text } }));
}

/** POST /api/meetings/:id/minutes/circulate: sends draft minutes to the participants. */
export function useCirculateMinutes(meetingId: number) {
  return useMinutesMutation(meetingId, () => callApi(api.circulateMinutes, { params: { id: meetingId } }));
}

/**
 * POST /api/meetings/:id/minutes/approve: by a resolution of the board, or by the chair's signature (which files
 * their PDF in the library). `onApproved` lets the page refresh the resolutions and the library.
 */
export function useApproveMinutes(meetingId: number, onApproved?: () => unknown) {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return useMutation({
    mutationFn: (via: ApprovalRoute) => callApi(api.approveMinutes, { params: { id: meetingId }, body: { via } }),
    onSuccess: async (minutes) => {
      queryClient.setQueryData<Minutes>(meetingRecordKeys.minutes(companyId, meetingId), minutes);
      await onApproved?.();
    },
  });
}
