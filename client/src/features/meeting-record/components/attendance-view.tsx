import { attendanceStatusLabels, quorumSentence, type Attendance } from "@shared/meeting-record";
import { formatTime } from "@/lib/format";

/** Whether the meeting was quorate, as a sentence. */
export function QuorumLine({ attendance }: { attendance: Attendance }) {
  return (
    <p className="text-sm font-medium" data-quorate={attendance.quorum.quorate}>
      {quorumSentence(attendance.quorum)}
    </p>
  );
}

/** The attendance as recorded, read only: for those who do not keep the record, and once approved minutes fix it. */
export function AttendanceView({ attendance }: { attendance: Attendance }) {
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
