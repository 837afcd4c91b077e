import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Agenda } from "@shared/agenda";
import * as api from "@shared/api/meetings";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { meetingKeys } from "@/features/meetings/api/meeting-keys";

/** GET /api/meetings/:id/agenda → the items in order, each with its start time. */
export function getAgenda(meetingId: number): Promise<Agenda> {
  return callApi(api.getAgenda, { params: { id: meetingId } });
}

export const agendaQueryOptions = (companyId: number | null, meetingId: number) =>
  queryOptions({ queryKey: meetingKeys.agenda(companyId, meetingId), queryFn: () => getAgenda(meetingId) });

/** A meeting's agenda (`enabled: false` waits). Like the meeting itself, it is asked for whatever the active company: the server decides who may see it. */
export function useAgenda(meetingId: number, { enabled = true }: { enabled?: boolean } = {}) {
  const companyId = useActiveCompany();
  return useQuery({ ...agendaQueryOptions(companyId, meetingId), enabled });
}
