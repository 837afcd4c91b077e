import { useMemo } from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useUpcomingMeetings } from "@/features/meetings/api/get-upcoming-meetings";
import { MeetingRows } from "@/features/meetings/components/meeting-row";
import { isUpcoming } from "@/features/meetings/lib/listed-meeting";
import { useNow } from "@/lib/use-now";

/** The dashboard's Upcoming Meetings: the company's next meetings, soonest first. */
export function UpcomingMeetingsPanel() {
  const meetings = useUpcomingMeetings();
  // The list is loaded once (data never goes stale): a meeting that has started since leaves it, as on /meetings.
  const now = useNow();
  const upcoming = useMemo(() => (meetings.data ?? []).filter((meeting) => isUpcoming(meeting, now)), [meetings.data, now]);

  return (
    <Card aria-labelledby="upcoming-meetings-heading">
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle id="upcoming-meetings-heading" role="heading" aria-level={2} className="text-lg">
          Upcoming Meetings
        </CardTitle>
        <Button asChild variant="link" size="sm" className="px-0">
          <Link href="/meetings">View all</Link>
        </Button>
      </CardHeader>
      <CardContent>
        {meetings.isPending ? (
          <div className="grid gap-3" role="status" aria-label="Loading upcoming meetings">
            {[0, 1, 2].map((key) => (
              <Skeleton key={key} className="h-20 w-full" />
            ))}
          </div>
        ) : meetings.isError ? (
          <p className="text-sm text-destructive">The upcoming meetings could not be loaded.</p>
        ) : upcoming.length === 0 ? (
          <p className="text-sm text-muted-foreground">No upcoming meetings scheduled.</p>
        ) : (
          <MeetingRows meetings={upcoming} />
        )}
      </CardContent>
    </Card>
  );
}
