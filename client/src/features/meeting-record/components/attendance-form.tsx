import { format } from "date-fns";
import { Loader2 } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import {
  attendanceStatuses,
  attendanceStatusLabels,
  attendingStatuses,
  type Attendance,
  type AttendanceStatus,
} from "@shared/meeting-record";
import { roleLabel } from "@shared/roles";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { toast } from "@/components/ui/use-toast";
import { ApiError } from "@/lib/api-client";
import { TIME_INPUT_FORMAT } from "@/lib/format";
import { useRecordAttendance } from "@/features/meeting-record/api/attendance";
import { QuorumLine } from "@/features/meeting-record/components/attendance-view";
import { GuestList } from "@/features/meeting-record/components/guest-list";
import { RecordErrors } from "@/features/meeting-record/components/record-section";
import { refusalOf, type Refusal } from "@/features/meeting-record/lib/refusal";

const NO_CHAIR = "none";

const isAttending = (status: AttendanceStatus) => attendingStatuses.includes(status);

/** "22:05" on the meeting's day, in local time, as an ISO timestamp. */
function onMeetingDay(startsAt: Date, time: string): string {
  const [hours, minutes] = time.split(":").map(Number);
  return new Date(startsAt.getFullYear(), startsAt.getMonth(), startsAt.getDate(), hours, minutes).toISOString();
}

/** The attendance as those who keep the record edit it: each participant's status, the chair, the time of close, the guests. */
export function AttendanceForm({
  meetingId,
  meetingStartsAt,
  attendance,
}: {
  meetingId: number;
  meetingStartsAt: Date;
  attendance: Attendance;
}) {
  const save = useRecordAttendance(meetingId);
  // The time as recorded; left untouched, the recorded instant is sent back as it was (it may fall after midnight).
  const recordedTime = attendance.closedAt ? format(new Date(attendance.closedAt), TIME_INPUT_FORMAT) : "";
  const [closedTime, setClosedTime] = useState(recordedTime);
  const [closedAtProblem, setClosedAtProblem] = useState<string | null>(null);
  const closedAtId = useId();
  const [statuses, setStatuses] = useState(() => new Map(attendance.attendees.map((attendee) => [attendee.userId, attendee.status])));
  const [guests, setGuests] = useState(() => attendance.guests.map((guest) => guest.name));
  const [chairId, setChairId] = useState<number | null>(attendance.chairId);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const attending = attendance.attendees.filter((attendee) => isAttending(statuses.get(attendee.userId) ?? "absent"));
  // A chair who is no longer recorded present is no chair.
  const chair = attending.some((attendee) => attendee.userId === chairId) ? chairId : null;
  const chairLabelId = useId();

  function setStatus(userId: number, status: AttendanceStatus) {
    setStatuses((current) => new Map(current).set(userId, status));
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setRefusal(null);
    setClosedAtProblem(null);
    const closedAt =
      closedTime === "" ? null : closedTime === recordedTime ? attendance.closedAt : onMeetingDay(meetingStartsAt, closedTime);
    try {
      await save.mutateAsync({
        attendees: attendance.attendees.map((attendee) => ({ userId: attendee.userId, status: statuses.get(attendee.userId) ?? "absent" })),
        guests: guests.map((name) => ({ name })),
        chairId: chair,
        closedAt,
      });
      toast({ title: "Attendance saved" });
    } catch (error) {
      // The time of close's reason is shown at its field, the others together below the form.
      const atField = error instanceof ApiError ? error.fieldErrors.find((field) => field.path === "closedAt")?.message : undefined;
      const refused = refusalOf(error, "The attendance could not be saved. Please try again.");
      setClosedAtProblem(atField ?? null);
      setRefusal({ ...refused, fields: refused.fields.filter((field) => field !== atField) });
    }
  }

  return (
    <form className="grid gap-6" onSubmit={(event) => void onSubmit(event)} aria-label="Record attendance">
      <QuorumLine attendance={attendance} />
      {attendance.attendees.length === 0 ? (
        <p className="text-sm text-muted-foreground">No participants were invited.</p>
      ) : (
        <div className="grid divide-y">
          {attendance.attendees.map((attendee) => (
            <StatusChoice
              key={attendee.userId}
              name={attendee.name}
              role={attendee.role}
              value={statuses.get(attendee.userId) ?? "absent"}
              onChange={(status) => setStatus(attendee.userId, status)}
            />
          ))}
        </div>
      )}
      <div className="grid gap-2 sm:max-w-sm">
        <Label id={chairLabelId}>Chair</Label>
        <Select
          value={chair == null ? NO_CHAIR : String(chair)}
          onValueChange={(value) => setChairId(value === NO_CHAIR ? null : Number(value))}
        >
          <SelectTrigger aria-labelledby={chairLabelId}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={NO_CHAIR}>No chair recorded</SelectItem>
            {attending.map((attendee) => (
              <SelectItem key={attendee.userId} value={String(attendee.userId)}>
                {attendee.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <p className="text-xs text-muted-foreground">Chosen among those present.</p>
      </div>
      <div className="grid gap-2 sm:max-w-sm">
        <Label htmlFor={closedAtId}>Closed at</Label>
        <Input
          id={closedAtId}
          type="time"
          className="w-fit"
          value={closedTime}
          aria-invalid={closedAtProblem != null}
          aria-describedby={closedAtProblem ? `${closedAtId}-hint ${closedAtId}-problem` : `${closedAtId}-hint`}
          onChange={(event) => setClosedTime(event.target.value)}
        />
        <p id={`${closedAtId}-hint`} className="text-xs text-muted-foreground">
          On the meeting's day. Leave empty if not recorded.
        </p>
        {closedAtProblem && (
          <p id={`${closedAtId}-problem`} className="text-sm text-destructive">
            {closedAtProblem}
          </p>
        )}
      </div>
      <GuestList guests={guests} onChange={setGuests} />
      <RecordErrors refusal={refusal} />
      <div>
        <Button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
          {save.isPending && <Loader2 className="animate-spin" aria-hidden />}
          Save attendance
        </Button>
      </div>
    </form>
  );
}

/** One participant's status: a group of four radio buttons named after them (arrow keys move within it). */
function StatusChoice({
  name,
  role,
  value,
  onChange,
}: {
  name: string;
  role: string | null;
  value: AttendanceStatus;
  onChange: (status: AttendanceStatus) => void;
}) {
  const groupName = useId();
  return (
    <div className="grid gap-2 py-3 first:pt-0 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)] sm:items-center sm:gap-4">
      <p id={`${groupName}-name`} className="min-w-0 text-sm font-medium break-words">
        {name}
        <span className="block text-xs font-normal text-muted-foreground">{role ? roleLabel(role) : "No longer a member"}</span>
      </p>
      <div role="radiogroup" aria-labelledby={`${groupName}-name`} className="flex flex-wrap gap-x-4 gap-y-2">
        {attendanceStatuses.map((status) => (
          <label key={status} className="inline-flex min-h-8 cursor-pointer items-center gap-2 text-sm">
            <input
              type="radio"
              name={groupName}
              value={status}
              checked={value === status}
              onChange={() => onChange(status)}
              className="size-4 accent-primary focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            />
            {attendanceStatusLabels[status]}
          </label>
        ))}
      </div>
    </div>
  );
}
