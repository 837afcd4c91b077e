import { ArrowLeft, CalendarDays, CalendarPlus, Clock, FileText, MapPin, Users, Video } from "lucide-react";
import { lazy, Suspense, useMemo, useState, type ReactNode } from "react";
import { Link } from "wouter";
import * as api from "@shared/api/meetings";
import { displayName } from "@shared/people";
import { can, canEditAgenda, canKeepMeetingRecord } from "@shared/permissions";
import { PageTitle } from "@/components/page-title";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { apiUrl } from "@/lib/api-client";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { formatLongDate } from "@/lib/format";
import { useMinutes } from "@/features/meetings/api/minutes";
import { AgendaDialog } from "@/features/meetings/components/agenda-dialog";
import { BoardPackButton } from "@/features/meetings/components/board-pack-button";
import { MeetingAgendaSection, useAgendaLookups } from "@/features/meetings/components/meeting-agenda-section";
import { MeetingLifecycle } from "@/features/meetings/components/meeting-lifecycle";
import { MeetingParticipants } from "@/features/meetings/components/meeting-participants";
import { MeetingStatusBadge } from "@/features/meetings/components/meeting-status-badge";
import { formatTimeRange } from "@/features/meetings/lib/format-meeting";
import { hasStarted, meetingLink, type MeetingDetails } from "@/features/meetings/lib/listed-meeting";
import type { AgendaResolution, MeetingSources } from "@/features/meetings/lib/meeting-sources";

// The record's sections load after the page (they are read after the meeting, and bring their own forms).
const MeetingAttendance = lazy(async () => ({
  default: (await import("@/features/meetings/components/meeting-attendance")).MeetingAttendance,
}));
const MeetingMinutes = lazy(async () => ({ default: (await import("@/features/meetings/components/meeting-minutes")).MeetingMinutes }));
const MeetingActionItems = lazy(async () => ({
  default: (await import("@/features/meetings/components/meeting-action-items")).MeetingActionItems,
}));
const ShowOfHandsDialog = lazy(async () => ({
  default: (await import("@/features/meetings/components/show-of-hands-dialog")).ShowOfHandsDialog,
}));

function BackToMeetings() {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-3 w-fit">
      <Link href="/meetings">
        <ArrowLeft aria-hidden />
        Back to Meetings
      </Link>
    </Button>
  );
}

export function MeetingDetailLoading() {
  return (
    <div className="grid gap-6" role="status" aria-label="Loading meeting">
      <Skeleton className="h-8 w-40" />
      <Skeleton className="h-9 w-2/3" />
      <Skeleton className="h-48 w-full" />
    </div>
  );
}

/** A missing id, a meeting of another company, or a document that is not a meeting. */
export function MeetingNotFound() {
  return (
    <div className="mx-auto grid max-w-md justify-items-center gap-4 py-16 text-center">
      <PageTitle>Meeting not found</PageTitle>
      <p className="text-muted-foreground">The meeting you&apos;re looking for doesn&apos;t exist.</p>
      <Button asChild>
        <Link href="/meetings">
          <ArrowLeft aria-hidden />
          Back to Meetings
        </Link>
      </Button>
    </div>
  );
}

/** Anything but a 404: the meeting may well exist, so say it could not be loaded. */
export function MeetingLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="mx-auto grid max-w-md justify-items-center gap-4 py-16 text-center">
      <PageTitle>Meeting unavailable</PageTitle>
      <p className="text-muted-foreground">The meeting could not be loaded. Please try again.</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button onClick={onRetry}>Try again</Button>
        <BackToMeetings />
      </div>
    </div>
  );
}

export interface MeetingDetailProps {
  meeting: MeetingDetails;
  now: Date;
  /** Who scheduled it (the document's uploader): they may edit its agenda. */
  creatorId: number | null;
  sources: MeetingSources;
}

/**
 * /meetings/:id, the meeting's home: title and badge; the date/time/location/attendees card with 'Join Meeting',
 * 'View Agenda', 'Download board pack' and, for founders and admins, Confirm/Reschedule/Cancel; the participants;
 * the agenda (editable by founders, admins and the meeting's creator); once it has started, its record: attendance,
 * a show of hands on the resolutions moved, the minutes and the action items (kept by founders, admins and the
 * meeting's creator).
 */
export function MeetingDetail({ meeting, now, creatorId, sources }: MeetingDetailProps) {
  const { user } = useCurrentUser();
  const [agendaOpen, setAgendaOpen] = useState(false);
  const [joinOpen, setJoinOpen] = useState(false);
  const [handsFor, setHandsFor] = useState<AgendaResolution | null>(null);
  const lookups = useAgendaLookups(sources);
  const link = meetingLink(meeting.location);
  const calendarUrl = apiUrl(api.meetingCalendar, { params: { id: meeting.id } });
  const isCreator = user != null && creatorId === user.id;
  const canEdit = canEditAgenda(user?.role, isCreator) && meeting.status !== "cancelled";
  const canManage = can(user?.role, "manageMeeting");
  const started = hasStarted(meeting, now);
  // A cancelled meeting has no record.
  const hasRecord = meeting.status !== "cancelled";
  const canKeep = canKeepMeetingRecord(user?.role, isCreator) && hasRecord;
  // Approved minutes fix the record: no show of hands after them (the same query the minutes' card reads).
  const minutes = useMinutes(meeting.id, canKeep && started);
  const handsOpen = canKeep && started && minutes.data != null && minutes.data.status !== "approved";
  const showOfHands = useMemo(() => (handsOpen ? { now, onOpen: setHandsFor } : undefined), [handsOpen, now]);
  const owners = useMemo(
    () => (sources.members.data ?? []).map((member) => ({ id: member.id, name: displayName(member) || member.email })),
    [sources.members.data],
  );

  return (
    <div className="grid min-w-0 gap-6">
      <BackToMeetings />
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
            <BoardPackButton meetingId={meeting.id} meetingTitle={meeting.title} />
          </div>
          {canManage && <MeetingLifecycle meeting={meeting} now={now} sources={sources} />}
        </CardContent>
      </Card>

      <MeetingParticipants participants={meeting.participants} members={sources.members} />
      {hasRecord && (
        <Suspense fallback={<MeetingDetailSectionLoading label="Loading attendance" />}>
          <MeetingAttendance meetingId={meeting.id} meetingStartsAt={meeting.date} started={started} canRecord={canKeep} />
        </Suspense>
      )}
      <MeetingAgendaSection meetingId={meeting.id} canEdit={canEdit} sources={sources} showOfHands={showOfHands} />
      {hasRecord && (
        <Suspense fallback={<MeetingDetailSectionLoading label="Loading minutes" />}>
          <MeetingMinutes meetingId={meeting.id} started={started} canKeep={canKeep} onApproved={sources.onRecordChanged} />
        </Suspense>
      )}
      {hasRecord && started && user && (
        <Card>
          <CardContent>
            <Suspense fallback={<MeetingDetailSectionLoading label="Loading action items" />}>
              <MeetingActionItems
                meetingId={meeting.id}
                meetingStartsAt={meeting.date}
                members={owners}
                canManage={canKeep}
                canEditAny={can(user.role, "editActionItems")}
                currentUserId={user.id}
              />
            </Suspense>
          </CardContent>
        </Card>
      )}
      {handsFor && (
        <Suspense fallback={null}>
          <ShowOfHandsDialog
            meetingId={meeting.id}
            resolution={handsFor}
            onClose={() => setHandsFor(null)}
            onDecided={sources.onRecordChanged}
          />
        </Suspense>
      )}

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
    </div>
  );
}

function MeetingDetailSectionLoading({ label }: { label: string }) {
  return <Skeleton className="h-32 w-full" role="status" aria-label={label} />;
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
