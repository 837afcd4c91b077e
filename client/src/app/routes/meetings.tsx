import { useState } from "react";
import { meetingCategory } from "@shared/meeting-model";
import { can } from "@shared/permissions";
import { ScheduleMeeting } from "@/app/schedule-meeting";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { useNow } from "@/lib/use-now";
import { useDocuments } from "@/features/documents/api/get-documents";
import { MeetingsList } from "@/features/meetings/components/meetings-list";
import { meetingsFromDocuments } from "@/features/meetings/lib/listed-meeting";

/** /meetings: the company's meetings, with the Schedule meeting modal (not for observers, whom the server refuses). */
export function MeetingsPage() {
  const { user } = useCurrentUser();
  // Meetings are documents on the wire: the documents list of the Meeting category, picked by the server.
  const meetings = useDocuments({ category: meetingCategory, select: meetingsFromDocuments });
  const now = useNow();
  const [scheduling, setScheduling] = useState(false);
  const canSchedule = can(user?.role, "scheduleMeeting");

  return (
    <>
      <MeetingsList meetings={meetings} now={now} onNewMeeting={canSchedule ? () => setScheduling(true) : undefined} />
      {canSchedule && <ScheduleMeeting open={scheduling} onOpenChange={setScheduling} />}
    </>
  );
}
