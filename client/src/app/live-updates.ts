import { useQueryClient, type QueryClient, type QueryKey } from "@tanstack/react-query";
import { useEffect } from "react";
import type { User } from "@shared/auth";
import { authKeys } from "@/lib/auth/auth-keys";
import { markComplianceStale } from "@/lib/compliance-keys";
import { openLiveEvents, type LiveEventHandlers } from "@/lib/live-events";
import { documentKeys } from "@/features/documents/api/document-keys";
import { refreshLibrary } from "@/features/documents/api/refresh-library";
import { meetingRecordKeys } from "@/features/meeting-record/api/meeting-record-keys";
import { meetingKeys } from "@/features/meetings/api/meeting-keys";
import { notificationKeys } from "@/features/notifications/api/notification-keys";
import { applyLiveVoteCounts, refreshLiveResolution } from "@/features/resolutions/api/live-resolutions";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

/**
 * What each live event does to the cache, composed here from the features whose reads it touches. Only reads on
 * screen are asked for again; the others are marked stale and asked for when next shown.
 */
function liveHandlers(queryClient: QueryClient): LiveEventHandlers {
  // Events name no company: they touch the active company's reads (a switch marks every other company's stale anyway).
  const company = () => queryClient.getQueryData<User | null>(authKeys.user())?.companyId ?? null;
  const invalidate = (queryKey: QueryKey) => queryClient.invalidateQueries({ queryKey });
  return {
    votes: (data) => applyLiveVoteCounts(queryClient, company(), data),
    resolution: ({ resolutionId }) => void refreshLiveResolution(queryClient, company(), resolutionId),
    notification: () => void invalidate(notificationKeys.all()),
    // A meeting is a document on the wire: its list and its page read documents, as the meeting page refreshes them.
    // Its record (attendance, minutes, action items) changes with it.
    meeting: () => {
      const companyId = company();
      void Promise.all([
        invalidate(meetingKeys.all(companyId)),
        invalidate(meetingRecordKeys.all(companyId)),
        invalidate(documentKeys.all(companyId)),
        markComplianceStale(queryClient, companyId),
      ]);
    },
    document: () => void refreshLibrary(queryClient, company()),
    resync: () => {
      const companyId = company();
      void Promise.all([
        invalidate(resolutionKeys.all(companyId)),
        invalidate(notificationKeys.all()),
        invalidate(meetingKeys.all(companyId)),
        invalidate(meetingRecordKeys.all(companyId)),
        invalidate(documentKeys.all(companyId)),
        markComplianceStale(queryClient, companyId),
      ]);
    },
  };
}

/** Keeps the live stream open while the signed-in app is mounted; signing out unmounts it, which closes the stream. */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  useEffect(() => openLiveEvents(liveHandlers(queryClient)), [queryClient]);
}
