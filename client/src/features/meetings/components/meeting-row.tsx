import { CalendarDays, FileDiff, MapPin, Users } from "lucide-react";
import { Link } from "wouter";
import { MeetingStatusBadge } from "@/features/meetings/components/meeting-status-badge";
import { formatMeetingRange, participantsLabel } from "@/features/meetings/lib/format-meeting";
import type { MeetingSummary } from "@/features/meetings/lib/listed-meeting";

/**
 * One meeting in a list (the dashboard's Upcoming Meetings and /meetings): a link to
 * /meetings/{id} with the title, 'MMMM d, yyyy • h:mm a - h:mm a', location, 'N participants' and
 * the status badge ('Completed' when `isPast`).
 */
export function MeetingRow({ meeting, isPast = false }: { meeting: MeetingSummary; isPast?: boolean }) {
  return (
    <Link
      href={`/meetings/${meeting.id}`}
      className="flex flex-col gap-3 rounded-lg border bg-card p-4 outline-none transition-colors hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/60 sm:flex-row sm:items-start sm:justify-between"
    >
      <div className="grid min-w-0 gap-1.5">
        <p className="font-semibold break-words">{meeting.title}</p>
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <CalendarDays className="size-4 shrink-0" aria-hidden />
          {formatMeetingRange(meeting.date, meeting.endDate)}
        </p>
        <p className="flex min-w-0 items-center gap-2 text-sm text-muted-foreground">
          <MapPin className="size-4 shrink-0" aria-hidden />
          <span className="truncate">{meeting.location}</span>
        </p>
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Users className="size-4 shrink-0" aria-hidden />
          {participantsLabel(meeting.participantCount)}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2 sm:flex-col sm:items-end">
        <MeetingStatusBadge status={meeting.status} isPast={isPast} />
        {meeting.papersChanged && (
          <span className="inline-flex w-fit items-center gap-1 rounded-md border border-warning/60 bg-warning/15 px-2 py-0.5 text-xs font-medium [&_svg]:size-3 [&_svg]:shrink-0">
            <FileDiff aria-hidden />
            Papers changed since you read them
          </span>
        )}
      </div>
    </Link>
  );
}

/** The rows of a meeting list. */
export function MeetingRows({ meetings, isPast = false }: { meetings: readonly MeetingSummary[]; isPast?: boolean }) {
  return (
    <ul className="grid gap-3">
      {meetings.map((meeting) => (
        <li key={meeting.id}>
          <MeetingRow meeting={meeting} isPast={isPast} />
        </li>
      ))}
    </ul>
  );
}
