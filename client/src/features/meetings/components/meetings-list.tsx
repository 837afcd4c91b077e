import { Plus } from "lucide-react";
import { useMemo, useState } from "react";
import { PageHeader } from "@/components/page-header";
import { SearchInput } from "@/components/search-input";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { MeetingRows } from "@/features/meetings/components/meeting-row";
import { matchesMeetingSearch, splitMeetings, type MeetingSummary } from "@/features/meetings/lib/listed-meeting";

/**
 * 'Board Meetings': search on the title, Upcoming and Past tabs decided against `now`.
 */
export function MeetingsList({
  meetings,
  isLoading,
  isError,
  now,
  onNewMeeting,
}: {
  meetings: MeetingSummary[] | undefined;
  isLoading: boolean;
  isError: boolean;
  now: Date;
  /** Opens the Schedule meeting modal; without it (observers) there is no New Meeting button. */
  onNewMeeting?: () => void;
}) {
  const [search, setSearch] = useState("");
  const { upcoming, past } = useMemo(
    () =>
      splitMeetings(
        (meetings ?? []).filter((meeting) => matchesMeetingSearch(meeting, search)),
        now,
      ),
    [meetings, search, now],
  );

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Board Meetings"
        actions={
          onNewMeeting && (
            <Button onClick={onNewMeeting}>
              <Plus aria-hidden />
              New Meeting
            </Button>
          )
        }
      />
      <SearchInput
        label="Search meetings"
        placeholder="Search meetings..."
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <Tabs defaultValue="upcoming">
        <TabsList>
          <TabsTrigger value="upcoming">Upcoming</TabsTrigger>
          <TabsTrigger value="past">Past</TabsTrigger>
        </TabsList>
        <TabsContent value="upcoming">
          <MeetingsTab
            meetings={upcoming}
            isPast={false}
            isLoading={isLoading}
            isError={isError}
            empty={search ? "No upcoming meetings match your search." : "No upcoming meetings scheduled."}
          />
        </TabsContent>
        <TabsContent value="past">
          <MeetingsTab
            meetings={past}
            isPast
            isLoading={isLoading}
            isError={isError}
            empty={search ? "No past meetings match your search." : "No past meetings."}
          />
        </TabsContent>
      </Tabs>
    </div>
  );
}

function MeetingsTab({
  meetings,
  isPast,
  isLoading,
  isError,
  empty,
}: {
  meetings: MeetingSummary[];
  isPast: boolean;
  isLoading: boolean;
  isError: boolean;
  empty: string;
}) {
  if (isLoading) {
    return (
      <div className="grid gap-3" role="status" aria-label="Loading meetings">
        {[0, 1, 2].map((key) => (
          <Skeleton key={key} className="h-24 w-full" />
        ))}
      </div>
    );
  }
  if (isError) return <p className="py-8 text-center text-sm text-destructive">The meetings could not be loaded. Please try again.</p>;
  if (meetings.length === 0) return <p className="py-8 text-center text-sm text-muted-foreground">{empty}</p>;
  return <MeetingRows meetings={meetings} isPast={isPast} />;
}
