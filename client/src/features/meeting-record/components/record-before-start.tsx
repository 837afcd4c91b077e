import { RecordSection } from "@/features/meeting-record/components/record-section";
import { ATTENDANCE_SECTION_ID, MINUTES_SECTION_ID } from "@/features/meeting-record/lib/record-sections";

// The Attendance and Minutes cards before the meeting starts, when there is nothing to record yet. Kept apart from the
// cards themselves so a meeting still to come draws them without loading the record's forms and their checks.

export function AttendanceBeforeStart() {
  return (
    <RecordSection id={ATTENDANCE_SECTION_ID} title="Attendance">
      <p className="text-sm text-muted-foreground">Attendance can be recorded once the meeting starts.</p>
    </RecordSection>
  );
}

export function MinutesBeforeStart() {
  return (
    <RecordSection id={MINUTES_SECTION_ID} title="Minutes">
      <p className="text-sm text-muted-foreground">Minutes can be drafted once the meeting starts.</p>
    </RecordSection>
  );
}
