import { useQuery } from "@tanstack/react-query";
import * as api from "@shared/api/reading";
import type { BoardReading, MeetingReading } from "@shared/paper-reading";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { meetingKeys } from "@/features/meetings/api/meeting-keys";

/** The caller's own progress through a meeting's papers. */
export function useMeetingReading(meetingId: number) {
  const companyId = useActiveCompany();
  return useQuery({
    queryKey: meetingKeys.reading(companyId, meetingId),
    queryFn: (): Promise<MeetingReading> => callApi(api.meetingReading, { params: { id: meetingId } }),
  });
}

/** Who has opened the pack and each paper: for founders, admins and the meeting's creator (`enabled` says who). */
export function useBoardReading(meetingId: number, enabled: boolean) {
  const companyId = useActiveCompany();
  return useQuery({
    queryKey: meetingKeys.boardReading(companyId, meetingId),
    queryFn: (): Promise<BoardReading> => callApi(api.boardReading, { params: { id: meetingId } }),
    enabled,
    // A 403 (receipts off) is an answer, not a failure to try again.
    retry: false,
  });
}
