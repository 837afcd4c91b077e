import { CalendarDays, Clock, FileText, MapPin, Users, Video } from "lucide-react";
import { lazy, Suspense, useState, type ReactNode } from "react";
import * as api from "@shared/api/meetings";
import { PageTitle } from "@/components/page-title";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { apiUrl } from "@/lib/api-client";
import { formatLongDate } from "@/lib/format";
import { useShownOnce } from "@/lib/use-shown-once";
import { useAgendaLookups } from "@/features/meetings/components/meeting-agenda-section";
import { MeetingStatusBadge } from "@/features/meetings/components/meeting-status-badge";
import { formatTimeRange } from "@/features/meetings/lib/format-meeting";
import { meetingLink, type MeetingDetails } from "@/features/meetings/lib/listed-meeting";
import type { MeetingSources } from "@/features/meetings/lib/meeting-sources";

// The dialogs load when first opened: their code (Radix's dialog, its focus trap and scroll lock) is not needed to draw
// the page. Once opened they stay mounted, and close as dialogs do.
const AgendaDialog = lazy(async () => ({ default: (await import("@/features/meetings/components/agenda-dialog")).AgendaDialog }));
const JoinMeetingDialog = lazy(async () => ({
  default: (await import("@/features/meetings/components/join-meeting-dialog")).JoinMeetingDialog,
}));

export interface MeetingOverviewProps {
  meeting: MeetingDetails;
  started: boolean;
  sources: MeetingSources;
  /** Buttons after 'Join Meeting' and 'View Agenda'. */
  actions?: ReactNode;
  /** Below the buttons, inside the card. */
  children?: ReactNode;
}

/**
 * The top of a meeting's page: its title and badge, then the card of its date, time, location and attendees with
 * 'Join Meeting' (the link in its location, or else the calendar file) and 'View Agenda'.
 */
export function MeetingOverview({ meeting, started, sources, actions, children }: MeetingOverviewProps) {
  const [open, setOpen] = useState<"agenda" | "join" | null>(null);
  // Each dialog loads when first opened, then stays mounted to close as dialogs do.
  const agendaShown = useShownOnce(open === "agenda");
  const joinShown = useShownOnce(open === "join");
  const closeUnless = (isOpen: boolean) => !isOpen && setOpen(null);
  const lookups = useAgendaLookups(sources);
  const link = meetingLink(meeting.location);
  const calendarUrl = apiUrl(api.meetingCalendar, { params: { id: meeting.id } });

  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <PageTitle className="min-w-0 break-words">{meeting.title}</PageTitle>
        <MeetingStatusBadge status={meeting.status} isPast={started} />
      </div>
      <Card>
        <CardContent className="grid gap-6">
          <dl className="grid gap-5 sm:grid-cols-2">
            <DetailItem icon={<CalendarDays aria-hidden />} label="Date" value={formatLongDate(meeting.date)} />
            <DetailItem icon={<Clock aria-hidden />} label="Time" value={formatTimeRange(meeting.date, meeting.endDate)} />
            <DetailItem icon={<MapPin aria-hidden />} label="Location" value={meeting.location} />
            <DetailItem
              icon={<Users aria-hidden />}
              label="Attendees"
              value={`${meeting.participantCount} ${meeting.participantCount === 1 ? "attendee" : "attendees"}`}
            />
          </dl>
          <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
            {link ? (
              <Button asChild>
                <a href={link} target="_blank" rel="noopener noreferrer">
                  <Video aria-hidden />
                  Join Meeting
                </a>
              </Button>
            ) : (
              <Button onClick={() => setOpen("join")}>
                <Video aria-hidden />
                Join Meeting
              </Button>
            )}
            <Button variant="outline" onClick={() => setOpen("agenda")}>
              <FileText aria-hidden />
              View Agenda
            </Button>
            {actions}
          </div>
          {children}
        </CardContent>
      </Card>

      {agendaShown && (
        <Suspense fallback={null}>
          <AgendaDialog open={open === "agenda"} onOpenChange={closeUnless} meeting={meeting} lookups={lookups} />
        </Suspense>
      )}
      {joinShown && (
        <Suspense fallback={null}>
          <JoinMeetingDialog
            open={open === "join"}
            onOpenChange={closeUnless}
            location={meeting.location}
            calendarFile={{ url: calendarUrl, name: `meeting-${meeting.id}.ics` }}
          />
        </Suspense>
      )}
    </>
  );
}

function DetailItem({ icon, label, value }: { icon: ReactNode; label: string; value: string }) {
  return (
    <div className="grid min-w-0 gap-1">
      <dt className="flex items-center gap-2 text-sm text-muted-foreground [&_svg]:size-5 [&_svg]:shrink-0">
        {icon}
        {label}
      </dt>
      <dd className="pl-7 font-medium break-words">{value}</dd>
    </div>
  );
}
