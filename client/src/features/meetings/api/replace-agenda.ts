import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Agenda, AgendaInput } from "@shared/agenda";
import * as api from "@shared/api/meetings";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { meetingKeys } from "@/features/meetings/api/meeting-keys";

/** PUT /api/meetings/:id/agenda: the whole list, in order; answers the agenda as GET does. */
export function replaceAgenda(meetingId: number, body: AgendaInput): Promise<Agenda> {
  return callApi(api.replaceAgenda, { params: { id: meetingId }, body });
}

/**
 * Saves a meeting's agenda. The answer replaces the cached agenda; `onSaved` lets the page refresh what
 * it holds of the meeting elsewhere (its document carries the agenda as text).
 */
export function useReplaceAgenda(meetingId: number, onSaved?: () => Promise<unknown> | void) {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return useMutation({
    mutationFn: (body: AgendaInput) => replaceAgenda(meetingId, body),
    onSuccess: async (agenda) => {
      queryClient.setQueryData(meetingKeys.agenda(companyId, meetingId), agenda);
      await onSaved?.();
    },
  });
}
