import { useAttendance } from "@/features/meeting-record/api/attendance";
import { useMinutes } from "@/features/meeting-record/api/minutes";
import { AttendanceForm } from "@/features/meeting-record/components/attendance-form";
import { AttendanceView } from "@/features/meeting-record/components/attendance-view";
import { AttendanceBeforeStart } from "@/features/meeting-record/components/record-before-start";
import { RecordSection, SectionLoading, SectionLoadError } from "@/features/meeting-record/components/record-section";
import { ATTENDANCE_SECTION_ID } from "@/features/meeting-record/lib/record-sections";

export interface MeetingAttendanceProps {
  meetingId: number;
  /** The meeting's start: the time of close is entered on its day. */
  meetingStartsAt: Date;
  /** Attendance is recorded from the meeting's start. */
  started: boolean;
  /** A founder, an admin or the meeting's creator, while the meeting is not cancelled. */
  canRecord: boolean;
}

/** The Attendance card: each participant's status, the guests, the chair and whether the meeting was quorate. */
export function MeetingAttendance({ meetingId, meetingStartsAt, started, canRecord }: MeetingAttendanceProps) {
  const attendance = useAttendance(meetingId, started);
  // Approved minutes fix the record they were drawn from.
  const minutes = useMinutes(meetingId, started && canRecord);
  const editable = canRecord && minutes.data?.status !== "approved";

  if (!started) return <AttendanceBeforeStart />;
  let body;
  if (attendance.isPending) {
    body = <SectionLoading label="Loading attendance" />;
  } else if (attendance.isError) {
    body = <SectionLoadError what="The attendance" onRetry={() => void attendance.refetch()} />;
  } else if (editable) {
    // Afresh from each answer the server gives (after a save, its record is the one shown).
    body = (
      <AttendanceForm key={attendance.dataUpdatedAt} meetingId={meetingId} meetingStartsAt={meetingStartsAt} attendance={attendance.data} />
    );
  } else {
    body = <AttendanceView attendance={attendance.data} />;
  }

  return (
    <RecordSection id={ATTENDANCE_SECTION_ID} title="Attendance">
      {body}
    </RecordSection>
  );
}
