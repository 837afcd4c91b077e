import { useQuery } from "@tanstack/react-query";
import * as api from "@shared/api/resolutions";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { meetingRecordKeys } from "@/features/meeting-record/api/meeting-record-keys";

/**
 * GET /api/resolutions/:id, read for who declared a conflict on it (they take no part in a show of hands).
 * Asked for afresh each time a show of hands opens: a conflict may have been declared since.
 */
export function useResolutionDetails(resolutionId: number) {
  const companyId = useActiveCompany();
  return useQuery({
    queryKey: meetingRecordKeys.resolution(companyId, resolutionId),
    queryFn: () => callApi(api.getResolution, { params: { id: resolutionId } }),
    staleTime: 0,
    refetchOnMount: "always",
  });
}
