import { lazy, Suspense, useState } from "react";
import { meetingCategory } from "@shared/meeting-model";
import { can } from "@shared/permissions";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { useNow } from "@/lib/use-now";
import { useDocuments } from "@/features/documents/api/get-documents";
import { MeetingsList } from "@/features/meetings/components/meetings-list";
import { meetingsFromDocuments } from "@/features/meetings/lib/listed-meeting";

// The Schedule meeting modal (its form, validation, date fields and member picker) loads when it is first opened.
const ScheduleMeeting = lazy(() => import("@/app/schedule-meeting").then((module) => ({ default: module.ScheduleMeeting })));

/** /meetings: the company's meetings, with the Schedule meeting modal (not for observers, whom the server refuses). */
export function MeetingsPage() {
  const { user } = useCurrentUser();
  // Meetings are documents on the wire: the documents list of the Meeting category, picked by the server.
  const meetings = useDocuments({ category: meetingCategory, select: meetingsFromDocuments });
  const now = useNow();
  const [scheduling, setScheduling] = useState(false);
  // Once opened, the modal stays mounted: it closes with its animation and keeps its draft.
  const [scheduled, setScheduled] = useState(false);
  const canSchedule = can(user?.role, "scheduleMeeting");
  const openScheduling = () => {
    setScheduled(true);
    setScheduling(true);
  };

  return (
    <>
      <MeetingsList meetings={meetings} now={now} onNewMeeting={canSchedule ? openScheduling : undefined} />
      {canSchedule && scheduled && (
        <Suspense fallback={null}>
          <ScheduleMeeting open={scheduling} onOpenChange={setScheduling} />
        </Suspense>
      )}
    </>
  );
}
