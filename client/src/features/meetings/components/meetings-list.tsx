import { CalendarDays, Plus } from "lucide-react";
import { useMemo, useState } from "react";
import { ListQueryState, ListScreen, ListSkeleton, type ListQuery } from "@/components/list-screen";
import { VirtualList } from "@/components/virtual-list";
import { MeetingRow } from "@/features/meetings/components/meeting-row";
import { matchesMeetingSearch, splitMeetings, type MeetingSummary } from "@/features/meetings/lib/listed-meeting";

const tabs = [
  {
    value: "upcoming",
    label: "Upcoming",
    isPast: false,
    empty: "No upcoming meetings scheduled.",
    noMatch: "No upcoming meetings match your search.",
  },
  { value: "past", label: "Past", isPast: true, empty: "No past meetings.", noMatch: "No past meetings match your search." },
] as const;
const meetingKey = (meeting: MeetingSummary) => meeting.id;

/**
 * 'Board Meetings': search on the title, Upcoming and Past tabs decided against `now`.
 */
export function MeetingsList({
  meetings,
  now,
  onNewMeeting,
}: {
  meetings: ListQuery<MeetingSummary>;
  now: Date;
  /** Opens the Schedule meeting modal; without it (observers) there is no New Meeting button. */
  onNewMeeting?: () => void;
}) {
  const [search, setSearch] = useState("");
  const grouped = useMemo(
    () =>
      splitMeetings(
        (meetings.data ?? []).filter((meeting) => matchesMeetingSearch(meeting, search)),
        now,
      ),
    [meetings.data, search, now],
  );

  return (
    <ListScreen
      title="Board Meetings"
      action={onNewMeeting && { label: "New Meeting", icon: Plus, onClick: onNewMeeting }}
      search={{ label: "Search meetings", placeholder: "Search meetings...", value: search, onChange: setSearch }}
      tabs={tabs.map((tab) => ({
        value: tab.value,
        label: tab.label,
        content: (
          <ListQueryState
            query={meetings}
            items={grouped[tab.value]}
            loading={<ListSkeleton label="Loading meetings" itemClassName="h-24 w-full" />}
            error="The meetings could not be loaded. Please try again."
            empty={{ icon: CalendarDays, message: search ? tab.noMatch : tab.empty }}
          >
            {(shown) => (
              // Only the rows on screen are rendered: ten years of meetings stay a few dozen elements.
              <VirtualList
                label={`${tab.label} meetings`}
                items={shown}
                getKey={meetingKey}
                estimateSize={134}
                gap={12}
                renderItem={(meeting) => <MeetingRow meeting={meeting} isPast={tab.isPast} />}
              />
            )}
          </ListQueryState>
        ),
      }))}
    />
  );
}
