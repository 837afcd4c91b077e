import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/meeting-record";
import type { ActionItem, CreateActionItemInput, UpdateActionItemInput } from "@shared/meeting-record";
import { callApi } from "@/lib/api-client";
import { useActiveCompany, useActiveCompanyQuery } from "@/lib/auth/active-company";
import { useFirstScreenDrawn } from "@/lib/first-screen";
import { meetingRecordKeys } from "@/features/meeting-record/api/meeting-record-keys";

// Types only from the shapes' module: the dashboard's panel reads these hooks, and its first load carries no zod.

/** Query keys of action items, within the record's keys. */
export const actionItemKeys = {
  all: (companyId: number | null) => [...meetingRecordKeys.all(companyId), "action-items"] as const,
  /** GET /api/companies/:companyId/action-items?owner=me&status=open (the dashboard's panel). */
  mine: (companyId: number | null) => [...actionItemKeys.all(companyId), "mine-open"] as const,
  /** GET /api/meetings/:id/action-items. */
  meeting: (companyId: number | null, meetingId: number) => [...actionItemKeys.all(companyId), "meeting", meetingId] as const,
};

/** The caller's open action items in the company, overdue and soonest due first. */
export function getMyOpenActionItems(companyId: number): Promise<ActionItem[]> {
  return callApi(api.companyActionItems, { params: { companyId }, query: { owner: "me", status: "open" } });
}

/** The dashboard's panel, below its first screen: asked once that screen is drawn. */
export function useMyOpenActionItems() {
  const drawn = useFirstScreenDrawn();
  return useActiveCompanyQuery(
    (companyId) => ({
      queryKey: actionItemKeys.mine(companyId),
      queryFn: () => getMyOpenActionItems(companyId),
    }),
    { enabled: drawn },
  );
}

/** A meeting's action items, soonest due first. */
export function useMeetingActionItems(meetingId: number) {
  const companyId = useActiveCompany();
  return useQuery({
    queryKey: actionItemKeys.meeting(companyId, meetingId),
    queryFn: () => callApi(api.meetingActionItems, { params: { id: meetingId } }),
  });
}

/** Every list of action items may hold the one that changed (the meeting's, and the dashboard's). */
function useRefreshActionItems() {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return () => queryClient.invalidateQueries({ queryKey: actionItemKeys.all(companyId) });
}

/** POST /api/meetings/:id/action-items. */
export function useCreateActionItem(meetingId: number) {
  const refresh = useRefreshActionItems();
  return useMutation({
    mutationFn: (body: CreateActionItemInput) => callApi(api.createActionItem, { params: { id: meetingId }, body }),
    onSuccess: refresh,
  });
}

/** PATCH /api/action-items/:id: its owner marks it done or open; founders and admins change anything. */
export function useUpdateActionItem() {
  const refresh = useRefreshActionItems();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateActionItemInput }) => callApi(api.updateActionItem, { params: { id }, body }),
    onSuccess: refresh,
  });
}
