import { CalendarDays, CalendarPlus, Clock, FileText, MapPin, Users, Video } from "lucide-react";
import { useState, type ReactNode } from "react";
import * as api from "@shared/api/meetings";
import { PageTitle } from "@/components/page-title";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { apiUrl } from "@/lib/api-client";
import { formatLongDate } from "@/lib/format";
import { AgendaDialog } from "@/features/meetings/components/agenda-dialog";
import { useAgendaLookups } from "@/features/meetings/components/meeting-agenda-section";
import { MeetingStatusBadge } from "@/features/meetings/components/meeting-status-badge";
import { formatTimeRange } from "@/features/meetings/lib/format-meeting";
import { meetingLink, type MeetingDetails } from "@/features/meetings/lib/listed-meeting";
import type { MeetingSources } from "@/features/meetings/lib/meeting-sources";

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
  const [agendaOpen, setAgendaOpen] = useState(false);
  const [joinOpen, setJoinOpen] = useState(false);
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
              <Button onClick={() => setJoinOpen(true)}>
                <Video aria-hidden />
                Join Meeting
              </Button>
            )}
            <Button variant="outline" onClick={() => setAgendaOpen(true)}>
              <FileText aria-hidden />
              View Agenda
            </Button>
            {actions}
          </div>
          {children}
        </CardContent>
      </Card>

      <AgendaDialog open={agendaOpen} onOpenChange={setAgendaOpen} meeting={meeting} lookups={lookups} />

      <Dialog open={joinOpen} onOpenChange={setJoinOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Join Meeting</DialogTitle>
            <DialogDescription>This meeting has no online link. It takes place at: {meeting.location}</DialogDescription>
          </DialogHeader>
          <p className="text-sm">Add it to your calendar to have the time, place and agenda at hand.</p>
          <DialogFooter>
            <Button asChild>
              <a href={calendarUrl} download={`meeting-${meeting.id}.ics`}>
                <CalendarPlus aria-hidden />
                Add to calendar (.ics)
              </a>
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
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
