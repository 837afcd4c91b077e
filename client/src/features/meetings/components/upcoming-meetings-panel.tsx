import { useMemo } from "react";
import { DashboardPanel } from "@/components/dashboard-panel";
import { useUpcomingMeetings } from "@/features/meetings/api/get-upcoming-meetings";
import { MeetingRows } from "@/features/meetings/components/meeting-row";
import { isUpcoming } from "@/features/meetings/lib/listed-meeting";
import { useNow } from "@/lib/use-now";

/** The dashboard's Upcoming Meetings: the company's next meetings, soonest first. */
export function UpcomingMeetingsPanel({ className }: { className?: string }) {
  const meetings = useUpcomingMeetings();
  // The list is loaded once (data never goes stale): a meeting that has started since leaves it, as on /meetings.
  const now = useNow();
  const upcoming = useMemo(() => (meetings.data ?? []).filter((meeting) => isUpcoming(meeting, now)), [meetings.data, now]);

  return (
    <DashboardPanel
      title="Upcoming Meetings"
      viewAllHref="/meetings"
      query={meetings}
      empty={upcoming.length === 0}
      emptyText="No upcoming meetings scheduled."
      skeletonClassName="h-20"
      className={className}
    >
      <MeetingRows meetings={upcoming} />
    </DashboardPanel>
  );
}
