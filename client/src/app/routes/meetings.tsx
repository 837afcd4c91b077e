import { useState } from "react";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { useMeetings } from "@/features/meetings/api/get-meetings";
import { MeetingsList } from "@/features/meetings/components/meetings-list";
import { ScheduleMeetingDialog } from "@/features/meetings/components/schedule-meeting-dialog";
import { canScheduleMeetings } from "@/features/meetings/lib/can-schedule";
import { useNow } from "@/lib/use-now";

/** /meetings: the company's meetings, with the Schedule meeting modal (not for observers, whom the server refuses). */
export function MeetingsPage() {
  const { user } = useCurrentUser();
  const companyId = user?.companyId ?? null;
  const meetings = useMeetings(companyId);
  const now = useNow();
  const [scheduling, setScheduling] = useState(false);
  const canSchedule = canScheduleMeetings(user?.role);

  return (
    <>
      <MeetingsList
        meetings={meetings.data}
        isLoading={companyId != null && meetings.isPending}
        isError={meetings.isError}
        now={now}
        onNewMeeting={canSchedule ? () => setScheduling(true) : undefined}
      />
      {canSchedule && <ScheduleMeetingDialog open={scheduling} onOpenChange={setScheduling} />}
    </>
  );
}
