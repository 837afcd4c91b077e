import type { MinutesStatus } from "@shared/meeting-record";
import { Badge } from "@/components/ui/badge";
import { formatLongDate } from "@/lib/format";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { useAttendance } from "@/features/meeting-record/api/attendance";
import { useMinutes } from "@/features/meeting-record/api/minutes";
import { ApprovedMinutes, MinutesText } from "@/features/meeting-record/components/approved-minutes";
import { KeptMinutes } from "@/features/meeting-record/components/kept-minutes";
import { ApproveButton, type Signer } from "@/features/meeting-record/components/minutes-dialogs";
import { MinutesBeforeStart } from "@/features/meeting-record/components/record-before-start";
import { RecordSection, SectionLoading, SectionLoadError } from "@/features/meeting-record/components/record-section";
import { MINUTES_SECTION_ID } from "@/features/meeting-record/lib/record-sections";

const badges: Record<MinutesStatus, { label: string; variant: "secondary" | "warning" | "default" | "success" }> = {
  none: { label: "Not drafted", variant: "secondary" },
  draft: { label: "Draft", variant: "warning" },
  circulated: { label: "Circulated", variant: "default" },
  approved: { label: "Approved", variant: "success" },
};

export interface MeetingMinutesProps {
  meetingId: number;
  /** Minutes are drafted from the meeting's start. */
  started: boolean;
  /** A founder, an admin or the meeting's creator, while the meeting is not cancelled. */
  canKeep: boolean;
  /** After the minutes are approved: the page refreshes the resolutions and the library. */
  onApproved?: () => unknown;
}

/** The Minutes card: drafted from the record, edited, circulated and approved by those who keep it; read by the rest. */
export function MeetingMinutes({ meetingId, started, canKeep, onApproved }: MeetingMinutesProps) {
  const minutes = useMinutes(meetingId, started);
  const signer = useSigner(meetingId, started);
  const badge = minutes.data ? badges[minutes.data.status] : null;
  const awaitingApproval = minutes.data?.status === "circulated" && minutes.data.resolutionId == null;

  if (!started) return <MinutesBeforeStart />;
  let body;
  if (minutes.isPending) {
    body = <SectionLoading label="Loading minutes" />;
  } else if (minutes.isError) {
    body = <SectionLoadError what="The minutes" onRetry={() => void minutes.refetch()} />;
  } else if (minutes.data.status === "approved") {
    body = <ApprovedMinutes minutes={minutes.data} />;
  } else if (canKeep) {
    body = <KeptMinutes meetingId={meetingId} minutes={minutes.data} signer={signer} onApproved={onApproved} />;
  } else if (minutes.data.status === "circulated" && minutes.data.text != null) {
    body = (
      <div className="grid gap-3">
        <p className="text-sm text-muted-foreground">
          Circulated{minutes.data.circulatedAt ? ` on ${formatLongDate(minutes.data.circulatedAt)}` : ""} for approval.
        </p>
        <MinutesText text={minutes.data.text} />
        {/* The recorded chair signs them, whatever their role. */}
        {awaitingApproval && signer.isChair && (
          <ApproveButton meetingId={meetingId} canPropose={false} signer={signer} onApproved={onApproved} />
        )}
      </div>
    );
  } else {
    body = (
      <p className="text-sm text-muted-foreground">
        {minutes.data.status === "draft" ? "The minutes are being drafted." : "The minutes have not been drafted yet."}
      </p>
    );
  }

  return (
    <RecordSection id={MINUTES_SECTION_ID} title="Minutes" aside={badge && <Badge variant={badge.variant}>{badge.label}</Badge>}>
      {body}
    </RecordSection>
  );
}

/** Who may sign the minutes as chair: the chair recorded in the attendance, or, when none is, whoever keeps the record. */
function useSigner(meetingId: number, started: boolean): Signer {
  const { user } = useCurrentUser();
  const attendance = useAttendance(meetingId, started);
  const chairId = attendance.data?.chairId ?? null;
  const chair = attendance.data?.attendees.find((attendee) => attendee.userId === chairId);
  return {
    chairName: chair?.name ?? null,
    isChair: chairId !== null && chairId === user?.id,
    noChair: attendance.isSuccess && chairId === null,
  };
}
