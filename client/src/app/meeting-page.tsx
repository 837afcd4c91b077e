import { memo, Suspense, useDeferredValue, useMemo, useState } from "react";
import type { DocumentObject } from "@shared/documents";
import { displayName } from "@shared/people";
import { can, canEditAgenda, canKeepMeetingRecord } from "@shared/permissions";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useAgendaPapers } from "@/app/agenda-papers";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { loadOnDemand, WhenLoaded } from "@/lib/load-on-demand";
import { useMinutes } from "@/features/meeting-record/api/minutes";
import { BoardPackButton } from "@/features/meeting-record/components/board-pack-button";
import { MeetingLifecycle } from "@/features/meeting-record/components/meeting-lifecycle";
import { AttendanceBeforeStart, MinutesBeforeStart } from "@/features/meeting-record/components/record-before-start";
import { BoardReadingPanel } from "@/features/meetings/components/board-reading-panel";
import { MeetingAgendaSection } from "@/features/meetings/components/meeting-agenda-section";
import { MeetingReadingCard } from "@/features/meetings/components/meeting-reading";
import { ExportNotesButton } from "@/features/reader/components/export-notes-button";
import { MeetingOverview } from "@/features/meetings/components/meeting-overview";
import { BackToMeetings } from "@/features/meetings/components/meeting-page-states";
import { MeetingParticipants } from "@/features/meetings/components/meeting-participants";
import { hasStarted, type MeetingDetails } from "@/features/meetings/lib/listed-meeting";
import type { AgendaResolution, MeetingSources } from "@/features/meetings/lib/meeting-sources";

// The record's sections load after the page once the meeting has started (they bring their own forms and checks);
// before that the page draws their cards with nothing to record.
// Each is drawn by WhenLoaded, its placeholder until its code is here: a Suspense fallback would hold the section back
// until 300 ms after it showed. The Suspense boundaries stay for a download asked for again after a failure.
const MeetingAttendance = loadOnDemand(() => import("@/features/meeting-record/components/meeting-attendance"), "MeetingAttendance");
const MeetingMinutes = loadOnDemand(() => import("@/features/meeting-record/components/meeting-minutes"), "MeetingMinutes");
const MeetingActionItems = loadOnDemand(() => import("@/features/meeting-record/components/meeting-action-items"), "MeetingActionItems");
// Only the dialog is handed on: loadOnDemand would read its props from every export of the module.
const ShowOfHandsDialog = loadOnDemand(
  () =>
    import("@/features/meeting-record/components/show-of-hands-dialog").then((module) => ({ ShowOfHandsDialog: module.ShowOfHandsDialog })),
  "ShowOfHandsDialog",
);

/** What the page refreshes when the record changes something shown elsewhere. */
export interface MeetingRecordEffects {
  /** Confirmed, rescheduled or cancelled: the meeting's document, the meetings lists and the agenda's start times. */
  onMeetingUpdated: (meeting: DocumentObject) => Promise<unknown> | void;
  /** A show of hands decided a resolution: the agenda shows its outcome, as do the resolutions. */
  onResolutionDecided: (meetingId: number) => Promise<unknown> | void;
  /** Approved minutes are a new resolution, or a PDF in the library. */
  onMinutesApproved: () => Promise<unknown> | void;
}

export interface MeetingPageProps {
  meeting: MeetingDetails;
  now: Date;
  /** Who scheduled it (the document's uploader): they may edit its agenda. */
  creatorId: number | null;
  sources: MeetingSources;
  effects: MeetingRecordEffects;
  /** The board's read receipts setting; undefined while it loads. */
  readReceipts?: boolean;
}

/**
 * /meetings/:id, the meeting's home: title and badge; the date/time/location/attendees card with 'Join Meeting',
 * 'View Agenda', 'Download board pack' and, for founders and admins, Confirm/Reschedule/Cancel; the participants;
 * the agenda (editable by founders, admins and the meeting's creator); once it has started, its record: attendance,
 * a show of hands on the resolutions moved, the minutes and the action items (kept by founders, admins and the
 * meeting's creator). The meeting comes from the meetings feature, its record from the meeting-record feature.
 * Memoized: the route hands it deferred copies of its reads, and re-renders at once without new ones.
 */
export const MeetingPage = memo(function MeetingPage({ meeting, now, creatorId, sources, effects, readReceipts }: MeetingPageProps) {
  const { user } = useCurrentUser();
  const [handsFor, setHandsFor] = useState<AgendaResolution | null>(null);
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
  const papers = useAgendaPapers(meeting.id, sources.library.data);
  const owners = useMemo(
    () => (sources.members.data ?? []).map((member) => ({ id: member.id, name: displayName(member) || member.email })),
    [sources.members.data],
  );
  // The title and the meeting's card are drawn first, a phone's first sight of the page; the sections below follow in
  // a render of their own, in the background, rather than holding that first paint back.
  const sectionsShown = useDeferredValue(true, false);

  return (
    <div className="grid min-w-0 gap-6">
      <BackToMeetings />
      <MeetingOverview
        meeting={meeting}
        started={started}
        sources={sources}
        actions={<BoardPackButton meetingId={meeting.id} meetingTitle={meeting.title} />}
      >
        {canManage && <MeetingLifecycle meeting={meeting} started={started} onChanged={effects.onMeetingUpdated} />}
      </MeetingOverview>

      {sectionsShown ? (
        <>
          <MeetingParticipants participants={meeting.participants} members={sources.members} />
          {hasRecord &&
            (started ? (
              <Suspense fallback={<SectionLoading label="Loading attendance" />}>
                <WhenLoaded
                  component={MeetingAttendance}
                  placeholder={<SectionLoading label="Loading attendance" />}
                  props={{ meetingId: meeting.id, meetingStartsAt: meeting.date, started, canRecord: canKeep }}
                />
              </Suspense>
            ) : (
              <AttendanceBeforeStart />
            ))}
          <MeetingReadingCard
            meetingId={meeting.id}
            papers={papers}
            readReceipts={readReceipts}
            exportNotes={<ExportNotesButton meetingId={meeting.id} />}
          />
          <MeetingAgendaSection meetingId={meeting.id} canEdit={canEdit} sources={sources} showOfHands={showOfHands} />
          {canEditAgenda(user?.role, isCreator) && <BoardReadingPanel meetingId={meeting.id} papers={papers} />}
          {hasRecord &&
            (started ? (
              <Suspense fallback={<SectionLoading label="Loading minutes" />}>
                <WhenLoaded
                  component={MeetingMinutes}
                  placeholder={<SectionLoading label="Loading minutes" />}
                  props={{ meetingId: meeting.id, started, canKeep, onApproved: effects.onMinutesApproved }}
                />
              </Suspense>
            ) : (
              <MinutesBeforeStart />
            ))}
          {hasRecord && started && user && (
            <Card>
              <CardContent>
                <Suspense fallback={<SectionLoading label="Loading action items" />}>
                  <WhenLoaded
                    component={MeetingActionItems}
                    placeholder={<SectionLoading label="Loading action items" />}
                    props={{
                      meetingId: meeting.id,
                      meetingStartsAt: meeting.date,
                      members: owners,
                      canManage: canKeep,
                      canEditAny: can(user.role, "editActionItems"),
                      currentUserId: user.id,
                    }}
                  />
                </Suspense>
              </CardContent>
            </Card>
          )}
        </>
      ) : (
        <SectionLoading label="Loading the meeting" />
      )}
      {handsFor && (
        <Suspense fallback={null}>
          <WhenLoaded
            component={ShowOfHandsDialog}
            placeholder={null}
            props={{
              meetingId: meeting.id,
              resolution: handsFor,
              onClose: () => setHandsFor(null),
              onDecided: () => effects.onResolutionDecided(meeting.id),
            }}
          />
        </Suspense>
      )}
    </div>
  );
});

function SectionLoading({ label }: { label: string }) {
  return <Skeleton className="h-32 w-full" role="status" aria-label={label} />;
}
