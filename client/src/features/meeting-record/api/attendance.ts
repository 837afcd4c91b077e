import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/meeting-record";
import type { Attendance, AttendanceInput } from "@shared/meeting-record";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { meetingRecordKeys } from "@/features/meeting-record/api/meeting-record-keys";

/** GET /api/meetings/:id/attendance → every participant with a status, the guests, the chair and the quorum. */
export function getAttendance(meetingId: number): Promise<Attendance> {
  return callApi(api.getAttendance, { params: { id: meetingId } });
}

/** A meeting's attendance; asked for only once the meeting has started (`enabled`). */
export function useAttendance(meetingId: number, enabled = true) {
  const companyId = useActiveCompany();
  return useQuery({ queryKey: meetingRecordKeys.attendance(companyId, meetingId), queryFn: () => getAttendance(meetingId), enabled });
}

/** PUT /api/meetings/:id/attendance: the whole record at once; the answer replaces the cached one. */
export function useRecordAttendance(meetingId: number) {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return useMutation({
    mutationFn: (body: AttendanceInput) => callApi(api.recordAttendance, { params: { id: meetingId }, body }),
    onSuccess: (attendance) => queryClient.setQueryData(meetingRecordKeys.attendance(companyId, meetingId), attendance),
  });
}
