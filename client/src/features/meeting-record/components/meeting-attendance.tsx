import { format } from "date-fns";
import { Loader2, UserPlus, X } from "lucide-react";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import {
  attendanceLimits,
  attendanceStatuses,
  attendanceStatusLabels,
  attendingStatuses,
  quorumSentence,
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
import { formatTime, TIME_INPUT_FORMAT } from "@/lib/format";
import { useAttendance, useRecordAttendance } from "@/features/meeting-record/api/attendance";
import { useMinutes } from "@/features/meeting-record/api/minutes";
import { RecordErrors, RecordSection, SectionLoading, SectionLoadError } from "@/features/meeting-record/components/record-section";
import { refusalOf, type Refusal } from "@/features/meeting-record/lib/refusal";

export const ATTENDANCE_SECTION_ID = "meeting-attendance";
const NO_CHAIR = "none";

const isAttending = (status: AttendanceStatus) => attendingStatuses.includes(status);

/** "22:05" on the meeting's day, in local time, as an ISO timestamp. */
function onMeetingDay(startsAt: Date, time: string): string {
  const [hours, minutes] = time.split(":").map(Number);
  return new Date(startsAt.getFullYear(), startsAt.getMonth(), startsAt.getDate(), hours, minutes).toISOString();
}

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

  let body;
  if (!started) {
    body = <p className="text-sm text-muted-foreground">Attendance can be recorded once the meeting starts.</p>;
  } else if (attendance.isPending) {
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

function QuorumLine({ attendance }: { attendance: Attendance }) {
  return (
    <p className="text-sm font-medium" data-quorate={attendance.quorum.quorate}>
      {quorumSentence(attendance.quorum)}
    </p>
  );
}

function AttendanceView({ attendance }: { attendance: Attendance }) {
  const chair = attendance.attendees.find((attendee) => attendee.userId === attendance.chairId);
  return (
    <div className="grid gap-4">
      <QuorumLine attendance={attendance} />
      {attendance.attendees.length === 0 ? (
        <p className="text-sm text-muted-foreground">No participants were invited.</p>
      ) : (
        <ul className="grid divide-y text-sm" aria-label="Participants' attendance">
          {attendance.attendees.map((attendee) => (
            <li key={attendee.userId} className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2">
              <span className="min-w-0 font-medium break-words">{attendee.name}</span>
              <span className="text-muted-foreground">{attendanceStatusLabels[attendee.status]}</span>
            </li>
          ))}
        </ul>
      )}
      <dl className="grid gap-2 text-sm sm:grid-cols-[auto_minmax(0,1fr)] sm:gap-x-4">
        <dt className="text-muted-foreground">Chair</dt>
        <dd className="break-words">{chair?.name ?? "Not recorded"}</dd>
        <dt className="text-muted-foreground">Guests</dt>
        <dd className="break-words">{attendance.guests.length === 0 ? "None" : attendance.guests.map((guest) => guest.name).join(", ")}</dd>
        <dt className="text-muted-foreground">Closed at</dt>
        <dd>{attendance.closedAt ? <time dateTime={attendance.closedAt}>{formatTime(attendance.closedAt)}</time> : "Not recorded"}</dd>
      </dl>
    </div>
  );
}

function AttendanceForm({ meetingId, meetingStartsAt, attendance }: { meetingId: number; meetingStartsAt: Date; attendance: Attendance }) {
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

/** Guests: not participants, named only (they never count towards the quorum). */
function GuestList({ guests, onChange }: { guests: string[]; onChange: (guests: string[]) => void }) {
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const removeRefs = useRef<(HTMLButtonElement | null)[]>([]);
  // After a chip is removed, the chip now at its place (the next one) takes the focus, else the name field.
  const [focusAt, setFocusAt] = useState<number | null>(null);

  useEffect(() => {
    if (focusAt == null) return;
    (removeRefs.current[focusAt] ?? inputRef.current)?.focus();
    setFocusAt(null);
  }, [focusAt]);

  function remove(index: number) {
    onChange(guests.filter((_, at) => at !== index));
    setFocusAt(index);
  }

  function add() {
    const trimmed = name.trim();
    if (!trimmed) return setProblem("Guest name is required");
    if (trimmed.length > attendanceLimits.guestName)
      return setProblem(`Guest name must be at most ${attendanceLimits.guestName} characters`);
    if (guests.length >= attendanceLimits.guests) return setProblem(`At most ${attendanceLimits.guests} guests`);
    onChange([...guests, trimmed]);
    setName("");
    setProblem(null);
  }

  return (
    <div className="grid gap-3">
      <h3 className="text-sm font-medium">Guests</h3>
      {guests.length === 0 ? (
        <p className="text-sm text-muted-foreground">No guests recorded.</p>
      ) : (
        <ul className="flex flex-wrap gap-2" aria-label="Guests">
          {guests.map((guest, index) => (
            <li
              key={`${index}-${guest}`}
              className="flex max-w-full min-w-0 items-center gap-1 rounded-full border bg-muted/40 py-0.5 pr-0.5 pl-3 text-sm"
            >
              <span className="min-w-0 break-words">{guest}</span>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="size-7 rounded-full"
                aria-label={`Remove guest ${guest}`}
                ref={(button) => {
                  removeRefs.current[index] = button;
                }}
                onClick={() => remove(index)}
              >
                <X aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="grid gap-2 sm:max-w-md">
        <Label htmlFor={inputId}>Guest name</Label>
        <div className="flex gap-2">
          <Input
            id={inputId}
            ref={inputRef}
            value={name}
            aria-invalid={problem != null}
            aria-describedby={problem ? `${inputId}-problem` : undefined}
            onChange={(event) => setName(event.target.value)}
            onKeyDown={(event) => {
              // Enter adds the guest rather than saving the whole record.
              if (event.key === "Enter") {
                event.preventDefault();
                add();
              }
            }}
          />
          <Button type="button" variant="outline" onClick={add}>
            <UserPlus aria-hidden />
            Add guest
          </Button>
        </div>
        {problem && (
          <p id={`${inputId}-problem`} role="alert" className="text-sm text-destructive">
            {problem}
          </p>
        )}
      </div>
    </div>
  );
}
